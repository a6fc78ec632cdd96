/** Payloads of the events Kit fires. Listeners get them through `kit.events.on(name, handler)`. */
export interface KitEventMap {
  FeedbackSubmitted: {
    set: string;
    version: string;
    locale: string;
    path: string;
    helpful: boolean;
    comment?: string;
    source: 'agent' | 'widget';
    user: unknown | null;
  };
  McpToolCalled: {
    set: string;
    tool: string;
    transport: 'stdio' | 'http';
    user: unknown | null;
    ok: boolean;
    durationMs: number;
  };
  SearchPerformed: {
    set: string;
    version: string;
    locale: string;
    query: string;
    results: number;
    source: 'mcp' | 'http' | 'ask' | 'cli';
  };
  /** A person published a drafted change (`kit drafts publish`, the review screen or `publish_draft`). */
  DraftPublished: {
    /** Key of the doc set the draft belongs to. */
    set: string;
    /** Id of the draft as it was listed (the first revision of the change). */
    draft: string;
    /** Ids of the published revisions the change recorded (two for a drafted move). */
    revisions: string[];
    /** What the draft changes: `page`, `navigation` or `manifest`. */
    kind: 'page' | 'navigation' | 'manifest';
    /** `write`, `delete`, `move` or `restore`. */
    action: 'write' | 'delete' | 'move' | 'restore';
    /** Version of the page or navigation file; null for the manifest. */
    version: string | null;
    /** Locale of the page or navigation file; null for the manifest. */
    locale: string | null;
    /** Page path (for a move, where the page went); null for navigation and the manifest. */
    path: string | null;
    /** Who wrote the draft (a user id, or `agent:<client name>`). */
    author: string | null;
    /** The draft's one-line summary. */
    summary: string | null;
    /** The user who published it, as the application's user resolver returned them; null for the local operator. */
    user: unknown | null;
    /** Where it was published from. */
    source: 'cli' | 'screen' | 'mcp';
  };
  /** A person discarded a drafted change; it stays in the history as `discarded`. */
  DraftDiscarded: {
    /** Key of the doc set the draft belongs to. */
    set: string;
    /** Id of the discarded draft (the first revision of the change). */
    draft: string;
    /** What the draft would have changed: `page`, `navigation` or `manifest`. */
    kind: 'page' | 'navigation' | 'manifest';
    /** `write`, `delete`, `move` or `restore`. */
    action: 'write' | 'delete' | 'move' | 'restore';
    /** Version of the page or navigation file; null for the manifest. */
    version: string | null;
    /** Locale of the page or navigation file; null for the manifest. */
    locale: string | null;
    /** Page path (for a move, where the page would have gone); null for navigation and the manifest. */
    path: string | null;
    /** Who wrote the draft. */
    author: string | null;
    /** The draft's one-line summary. */
    summary: string | null;
    /** The user who discarded it; null for the local operator. */
    user: unknown | null;
    /** Where it was discarded from. */
    source: 'cli' | 'screen' | 'mcp';
  };
  /** A person restored a page of a database set: a deleted page, or an older revision of a live one. */
  PageRestored: {
    /** Key of the doc set. */
    set: string;
    /** Version of the restored page. */
    version: string;
    /** Locale of the restored page. */
    locale: string;
    /** Path of the restored page. */
    path: string;
    /** Id of the revision whose content was brought back. */
    from_revision: string | null;
    /** Id of the `restore` revision the restore recorded. */
    revision: string;
    /** Content hash of the page after the restore. */
    content_hash: string;
    /** The user who restored it; null for the local operator. */
    user: unknown | null;
    /** Where it was restored from. */
    source: 'cli' | 'screen' | 'mcp';
  };
}

export type KitEventName = keyof KitEventMap;
