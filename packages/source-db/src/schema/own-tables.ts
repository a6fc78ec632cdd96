const KIT_TABLES_KEY = Symbol.for('kit.source-db.ownTables');

/** Kit's own tables, wherever they are defined (a config may load another instance of this module). */
export function kitTables(): WeakSet<object> {
  const shared = globalThis as Record<symbol, WeakSet<object> | undefined>;
  const tables = shared[KIT_TABLES_KEY] ?? new WeakSet<object>();
  shared[KIT_TABLES_KEY] = tables;
  return tables;
}

/** Marks tables as Kit's own, so `<Model>` never describes them. */
export function markKitTables(tables: Iterable<object>): void {
  const own = kitTables();
  for (const table of tables) own.add(table);
}
