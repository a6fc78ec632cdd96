/**
 * Payloads of the events Kit fires. Listeners get them through `kit.events.on(name, handler)` or the
 * config's `events` key. The comment on each event and field is the text of the events reference
 * page (apps/site/reference/events.md, written by `pnpm --filter @kit/core gen:events`): say when
 * the event fires and what each field holds.
 */
export interface KitEventMap {
  /**
   * A reader sent the "Was this page helpful?" widget (the set's feedback endpoint), or an agent
   * called the `submit_feedback` tool. Fires once the page is found and the input is valid, and only
   * when `feedback.enabled` is on for the set. Kit stores nothing: this event is the only record.
   */
  FeedbackSubmitted: {
    /** Key of the doc set the page belongs to. */
    set: string;
    /** Version id of the page, e.g. `3.x` (`current` on an unversioned set). */
    version: string;
    /** Locale code of the page, e.g. `en`. */
    locale: string;
    /** Page path without `.md`, e.g. `guides/webhooks`; a URL sent by the agent is resolved to its page. */
    path: string;
    /** True when the reader said the page helped. */
    helpful: boolean;
    /** The reader's comment, trimmed, at most 2000 characters; absent when none or blank. */
    comment?: string;
    /** `widget` from the reader site's widget, `agent` from the `submit_feedback` tool. */
    source: 'agent' | 'widget';
    /** The signed-in user as the config's user resolver returned it; null for a guest and the local server. */
    user: unknown | null;
  };
  /**
   * An MCP tool call was answered, on the local server (`kit mcp`) or a set's web endpoint. Fires for
   * every call, including refused and failed ones and calls of unknown tools, as the answer is sent.
   */
  McpToolCalled: {
    /** The set the call was about: the web endpoint's own set, or the local call's `set` argument (default: the default set). */
    set: string;
    /** Tool name as the client sent it, e.g. `search_docs`. */
    tool: string;
    /** `stdio` for the local server, `http` for a web endpoint. */
    transport: 'stdio' | 'http';
    /** The signed-in caller as the config's user resolver returned it; null for a guest and the local server. */
    user: unknown | null;
    /** False when the answer is an error: a tool error result or a protocol error. */
    ok: boolean;
    /** Milliseconds from receiving the call to sending its answer. */
    durationMs: number;
  };
  /**
   * The server ran a search: the `search_docs` tool, the reader site's `/_kit/search`, the agents'
   * `GET /ask` endpoint or `kit search`. Fires once per search, after pages the caller may not read
   * are dropped. Searches a browser runs in a downloaded client index stay in the browser and fire
   * nothing.
   */
  SearchPerformed: {
    /** Key of the doc set searched. */
    set: string;
    /** Version id searched, e.g. `3.x` (`current` on an unversioned set). */
    version: string;
    /** Locale code searched, e.g. `en`. */
    locale: string;
    /** The query, trimmed; empty when the caller sent only spaces. */
    query: string;
    /** How many results were returned, after access checks and the limit. */
    results: number;
    /**
     * Where the search came from: `mcp` for the `search_docs` tool (local or web), `http` for the
     * reader site's `/_kit/search` and `GET /ask`, `cli` for `kit search`, `ask` for the searches
     * the Ask AI assistant makes for an answer.
     */
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
    /** What the draft changes: `page`, `navigation`, `manifest` or `asset` (a file of the set). */
    kind: 'page' | 'navigation' | 'manifest' | 'asset';
    /** `write`, `delete`, `move` or `restore`. */
    action: 'write' | 'delete' | 'move' | 'restore';
    /** Version of the page or navigation file; null for the manifest. */
    version: string | null;
    /** Locale of the page or navigation file; null for the manifest. */
    locale: string | null;
    /** Page path (for a move, where the page went), or the name of the file in the set for an asset; null for navigation and the manifest. */
    path: string | null;
    /** Who wrote the draft: the signed-in user's id (else e-mail), or `agent:<client name>` for a user with neither; null when it records no author. */
    author: string | null;
    /**
     * Who published it, as the review rule compared them with `author`: the signed-in user's id (else
     * e-mail), or the local operator's account name (`kit drafts publish`, `kit mcp`). Differs from
     * `author` unless the set sets `review_self_publish`.
     */
    publisher: string | null;
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
    /** What the draft would have changed: `page`, `navigation`, `manifest` or `asset` (a file of the set). */
    kind: 'page' | 'navigation' | 'manifest' | 'asset';
    /** `write`, `delete`, `move` or `restore`. */
    action: 'write' | 'delete' | 'move' | 'restore';
    /** Version of the page or navigation file; null for the manifest. */
    version: string | null;
    /** Locale of the page or navigation file; null for the manifest. */
    locale: string | null;
    /** Page path (for a move, where the page would have gone), or the name of the file in the set for an asset; null for navigation and the manifest. */
    path: string | null;
    /** Who wrote the draft. */
    author: string | null;
    /** Who discarded it, as `publisher` of `DraftPublished` names who published. */
    discarder: string | null;
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

/** A listener of one event; Kit never waits for what it returns (see `createEvents`). */
export type KitEventHandler<E extends KitEventName> = (payload: KitEventMap[E]) => void | Promise<void>;
