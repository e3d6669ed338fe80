import { DISCORD_TEXTS, formatFileSize, DISCORD_NOTE_TEXTS as T } from '@guildhall/common';
import { ButtonStyle, ComponentType, type RESTPostAPIChannelMessageJSONBody } from 'discord-api-types/v10';
import type { NotePayload } from './service.ts';

/** Discord's markdown escaper (discord.js, loaded with the bot on the instance that posts). */
export type Escape = (text: string) => string;

/**
 * The message of a note: its text, a Join link button for a lobby, and `allowed_mentions: { parse: [] }`
 * so that a name such as `@everyone` in a file's title pings nobody.
 */
export function renderNote(
  p: NotePayload,
  publicUrl: string,
  esc: Escape,
): RESTPostAPIChannelMessageJSONBody {
  const allowed_mentions = { parse: [] };
  const link = (path: string) => new URL(path, publicUrl).toString();
  switch (p.kind) {
    case 'share':
      return {
        content: T.shared(esc(p.who), esc(p.name), formatFileSize(p.size), link(p.path)),
        allowed_mentions,
      };
    case 'lobby':
      return {
        content: p.game === 'pictionary' ? T.pictionaryLobby(esc(p.who)) : T.tictactoeRoom(esc(p.who)),
        components: [
          {
            type: ComponentType.ActionRow,
            components: [
              {
                type: ComponentType.Button,
                style: ButtonStyle.Link,
                label: DISCORD_TEXTS.join,
                url: link(p.path),
              },
            ],
          },
        ],
        allowed_mentions,
      };
    case 'song':
      return { content: T.song(esc(p.who), esc(p.title), p.more), allowed_mentions };
    case 'test':
      return { content: T.test(esc(p.who)), allowed_mentions };
  }
}
