import { type PictionaryGame, PICTIONARY_TEXTS as T } from '@guildhall/common';
import { Pencil } from 'lucide-react';
import { Button } from '../../../ui/Button.tsx';
import { Card } from '../../../ui/Card.tsx';

/**
 * The drawer's choice of three words at the start of a turn (issue 29); the server picks one when the
 * time runs out. Only the drawer's view carries `wordChoices`.
 */
export function WordChoice(props: {
  game: PictionaryGame;
  disabled: boolean;
  onChoose: (choice: number) => void;
}) {
  const words = props.game.wordChoices ?? [];
  return (
    <Card className="p-3 sm:p-4" data-testid="word-choice">
      <p className="flex items-center gap-2 font-medium">
        <Pencil className="size-4 text-brand" />
        {T.chooseWord}
      </p>
      <p className="mt-0.5 text-sm text-muted">{T.chooseHint}</p>
      <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-3">
        {words.map((w, i) => (
          <Button
            key={w}
            variant="secondary"
            size="lg"
            className="whitespace-normal [overflow-wrap:anywhere]"
            disabled={props.disabled}
            onClick={() => props.onChoose(i)}
            data-testid="word-option"
          >
            {w}
          </Button>
        ))}
      </div>
    </Card>
  );
}
