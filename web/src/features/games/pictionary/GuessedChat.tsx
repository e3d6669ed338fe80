import { PICTIONARY_MAX_CHAT_LENGTH, type PictionaryGame, PICTIONARY_TEXTS as T } from '@guildhall/common';
import { MessageCircle, Send } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { Card, CardTitle } from '../../../ui/Card.tsx';

/**
 * The chat among the drawer and the players who guessed the word (issue 29). The server sends its messages
 * to them only, so this card shows for them only; guessers never have it.
 */
export function GuessedChat(props: {
  game: PictionaryGame;
  disabled: boolean;
  onSend: (text: string) => Promise<boolean>;
}) {
  const [text, setText] = useState('');
  const { game } = props;
  const open = game.turnPhase === 'drawing' || game.turnPhase === 'reveal';
  return (
    <Card className="flex flex-col p-4 sm:p-4" data-testid="guessed-chat">
      <CardTitle icon={<MessageCircle className="size-4" />}>{T.guessedChat}</CardTitle>
      <ul className="max-h-48 min-h-8 space-y-1.5 overflow-y-auto text-sm" aria-live="polite">
        {game.chat.length === 0 && <li className="text-muted">{T.guessedChatOnly}</li>}
        {game.chat.map((m, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only within a turn
            key={i}
            data-testid="chat-message"
            className="rounded-lg bg-surface-2 px-2.5 py-1.5 [overflow-wrap:anywhere]"
          >
            <span className="font-semibold">{m.playerUsername}:</span> {m.text}
          </li>
        ))}
      </ul>
      {open && (
        <form
          className="mt-3 flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const t = text.trim();
            if (!t) return;
            setText('');
            void props.onSend(t);
          }}
        >
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            onFocus={(e) => e.currentTarget.scrollIntoView({ block: 'nearest' })}
            placeholder={T.guessedChatPlaceholder}
            aria-label={T.guessedChatPlaceholder}
            maxLength={PICTIONARY_MAX_CHAT_LENGTH}
            enterKeyHint="send"
            autoComplete="off"
            className="min-w-0 flex-1 rounded-lg border border-border bg-surface-2 px-3 py-2 text-base outline-none focus:border-brand sm:text-sm"
          />
          <Button
            type="submit"
            aria-label="Send message"
            disabled={text.trim() === '' || props.disabled}
            icon={<Send className="size-4" />}
          />
        </form>
      )}
    </Card>
  );
}
