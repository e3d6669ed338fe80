import { type PictionaryGame, PICTIONARY_TEXTS as T } from '@guildhall/common';
import { UserX } from 'lucide-react';
import { Button } from '../../../ui/Button.tsx';

/**
 * Under a player of a running game: the votes to kick them so far (votes/needed) and, for everyone but
 * them, a button to add one's vote (issue 29).
 */
export function KickVote(props: {
  game: PictionaryGame;
  playerId: string;
  username: string;
  myId: string;
  disabled: boolean;
  onVote: (playerId: string) => void;
}) {
  const tally = props.game.kickVotes.find((k) => k.playerId === props.playerId);
  if (props.playerId === props.myId) {
    return tally ? (
      <span className="text-xs text-danger-text" data-testid="kick-votes">
        {T.kickVotes(tally.votes, tally.needed)}
      </span>
    ) : null;
  }
  return (
    <span className="flex items-center gap-1.5">
      {tally && (
        <span className="text-xs text-danger-text tabular-nums" data-testid="kick-votes">
          {tally.votes}/{tally.needed}
        </span>
      )}
      <Button
        variant="ghost"
        size="sm"
        className="h-7 px-1.5"
        aria-label={`${T.voteKick}: ${props.username}`}
        title={tally ? T.kickVotes(tally.votes, tally.needed) : T.voteKick}
        disabled={props.disabled || tally?.byMe === true}
        onClick={() => props.onVote(props.playerId)}
        icon={<UserX className="size-4" />}
      />
    </span>
  );
}
