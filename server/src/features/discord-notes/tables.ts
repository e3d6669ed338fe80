/** A note waiting for the bot's instance to post it (migration 083); `payload` is a `NotePayload` as JSON. */
export type DiscordNotesOutboxTable = { id: string; payload: string; created_at: string };

export type DiscordNotesTables = { discord_notes_outbox: DiscordNotesOutboxTable };
