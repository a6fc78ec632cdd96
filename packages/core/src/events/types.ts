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
}

export type KitEventName = keyof KitEventMap;
