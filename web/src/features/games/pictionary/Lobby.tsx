import {
  cleanWordBanks,
  PICTIONARY_DEFAULT_BANK,
  PICTIONARY_DRAW_SECONDS,
  PICTIONARY_HINTS,
  PICTIONARY_PLAYERS,
  PICTIONARY_ROUNDS,
  type PictionaryGame,
  PICTIONARY_TEXTS as T,
} from '@guildhall/common';
import { Crown, Link2, LogOut, Play, Save, Settings, Users, UserX } from 'lucide-react';
import { Button } from '../../../ui/Button.tsx';
import { Card, CardTitle } from '../../../ui/Card.tsx';
import { InviteLinkField } from '../InviteLinkField.tsx';
import { parseCustomWords } from './game-view.ts';
import { useFollowedValue } from './useFollowedValue.ts';
import type { usePictionary } from './usePictionary.ts';

type State = ReturnType<typeof usePictionary>;

/** The lobby (portal-tools §2): players and slots, the host's settings or the read-only ones. */
export function Lobby({ game, myId, state }: { game: PictionaryGame; myId: string; state: State }) {
  const isHost = game.hostId === myId;
  const slots = Math.max(0, game.maxPlayers - game.players.length);
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <Card>
        <CardTitle
          icon={<Users className="size-4" />}
          action={
            <span className="text-sm text-muted" data-testid="player-count">
              {game.players.length}/{game.maxPlayers} Players
            </span>
          }
        >
          Lobby
        </CardTitle>
        <ul className="grid gap-2 sm:grid-cols-2" data-testid="lobby-players">
          {game.players.map((p) => (
            <li
              key={p.id}
              className="flex items-center justify-between gap-2 rounded-xl border border-border bg-surface-2 px-4 py-3"
            >
              <span className="truncate font-medium">
                {p.username}
                {p.id === myId && <span className="ml-1 text-muted">(you)</span>}
              </span>
              {p.id === game.hostId && (
                <span
                  className="flex items-center gap-1 text-xs font-medium text-warning-text"
                  data-testid="host-marker"
                >
                  <Crown className="size-3.5" />
                  {T.host}
                </span>
              )}
              {isHost && p.id !== myId && (
                // The host removes a player from the lobby (issue 29); they cannot rejoin this game.
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-7 px-1.5"
                  aria-label={`${T.kick}: ${p.username}`}
                  title={T.kick}
                  disabled={state.isKicking}
                  onClick={() => state.kickPlayer(p.id)}
                  icon={<UserX className="size-4" />}
                />
              )}
            </li>
          ))}
          {Array.from({ length: slots }, (_, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: empty slots have nothing else to tell them apart
              key={i}
              className="rounded-xl border border-dashed border-border px-4 py-3 text-sm text-muted"
            >
              {i === 0 ? T.waitingSlot : T.emptySlot}
            </li>
          ))}
        </ul>
        <InviteLink game={game} />
        <div className="mt-5 flex justify-end">
          <Button variant="danger" icon={<LogOut className="size-4" />} onClick={state.leaveGame}>
            {T.leaveLobby}
          </Button>
        </div>
      </Card>
      {isHost ? <HostSettings game={game} state={state} /> : <ReadOnlySettings game={game} state={state} />}
    </div>
  );
}

function HostSettings({ game, state }: { game: PictionaryGame; state: State }) {
  // Each field follows the game's value (changed in another tab or by a /pictionary command) until the
  // host edits it; another game opened loads its values (portal-tools §4, issue 44).
  const [rounds, setRounds] = useFollowedValue(game.maxRounds, game.id);
  const [maxPlayers, setMaxPlayers] = useFollowedValue(game.maxPlayers, game.id);
  const [banks, setBanks] = useFollowedValue(game.wordBanks, game.id, (b) => b.join(','));
  const [custom, setCustom] = useFollowedValue(game.customWords.join('\n'), game.id);
  const [isPrivate, setPrivate] = useFollowedValue(game.isPrivate, game.id);
  const [hints, setHints] = useFollowedValue(game.hints, game.id);
  const [drawSeconds, setDrawSeconds] = useFollowedValue(game.drawSeconds, game.id);
  const edited = {
    maxRounds: rounds,
    maxPlayers,
    wordBanks: cleanWordBanks(banks),
    customWords: parseCustomWords(custom),
    isPrivate,
    hints,
    drawSeconds,
  };
  const isDirty =
    edited.hints !== game.hints ||
    edited.drawSeconds !== game.drawSeconds ||
    edited.maxRounds !== game.maxRounds ||
    edited.maxPlayers !== game.maxPlayers ||
    edited.isPrivate !== game.isPrivate ||
    edited.wordBanks.join() !== game.wordBanks.join() ||
    edited.customWords.join('\n') !== game.customWords.join('\n');

  const toggle = (id: string, on: boolean) =>
    setBanks((held) => {
      const next = on ? [...held, id] : held.filter((b) => b !== id);
      // Deselecting the last category falls back to general (portal-tools §5).
      return next.length > 0 ? next : [PICTIONARY_DEFAULT_BANK];
    });
  const canStart = game.players.length >= PICTIONARY_PLAYERS.min;

  return (
    <Card data-testid="host-settings">
      <CardTitle icon={<Settings className="size-4" />}>{T.settings}</CardTitle>
      <div className="space-y-5">
        <Slider
          label={T.rounds}
          value={rounds}
          min={PICTIONARY_ROUNDS.min}
          max={PICTIONARY_ROUNDS.max}
          onChange={setRounds}
        />
        <Slider
          label={T.maxPlayers}
          value={maxPlayers}
          min={PICTIONARY_PLAYERS.min}
          max={PICTIONARY_PLAYERS.max}
          onChange={setMaxPlayers}
        />
        <div>
          <Slider
            label={T.hints}
            value={hints}
            min={PICTIONARY_HINTS.min}
            max={PICTIONARY_HINTS.max}
            onChange={setHints}
          />
          <p className="mt-1 text-xs text-muted">{T.hintsHelp}</p>
        </div>
        <div>
          <Slider
            label={T.drawTime}
            value={drawSeconds}
            shown={T.drawTimeValue(drawSeconds)}
            min={PICTIONARY_DRAW_SECONDS.min}
            max={PICTIONARY_DRAW_SECONDS.max}
            step={PICTIONARY_DRAW_SECONDS.step}
            onChange={setDrawSeconds}
          />
          <p className="mt-1 text-xs text-muted">{T.drawTimeHelp}</p>
        </div>
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{T.wordCategories}</legend>
          <div className="grid grid-cols-2 gap-2">
            {state.wordBanks.map((b) => (
              <label key={b.id} className="flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-[#5865f2]"
                  checked={banks.includes(b.id)}
                  onChange={(e) => toggle(b.id, e.target.checked)}
                />
                <span>
                  {b.name} <span className="text-muted">({b.count})</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block">
          <span className="mb-2 block text-sm font-medium">{T.customWords}</span>
          <textarea
            value={custom}
            onChange={(e) => setCustom(e.target.value)}
            rows={3}
            placeholder={T.customWordsPlaceholder}
            className="w-full rounded-lg border border-border bg-surface-2 px-3 py-2 text-sm outline-none focus:border-brand"
          />
        </label>
        <label className="flex cursor-pointer items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-[#5865f2]"
            checked={isPrivate}
            onChange={(e) => setPrivate(e.target.checked)}
            data-testid="private-room"
          />
          <span>
            <span className="font-medium">{T.privateRoom}</span>
            <span className="block text-muted">{T.privateRoomHint}</span>
          </span>
        </label>
        <div className="flex flex-col gap-2">
          <Button
            variant="secondary"
            icon={<Save className="size-4" />}
            disabled={state.isSaving}
            onClick={async () => {
              const saved = await state.saveSettings(edited);
              // The editor shows the words as kept: trimmed, lowercased, without duplicates.
              if (saved) setCustom(saved.customWords.join('\n'));
            }}
          >
            {T.updateSettings}
          </Button>
          <Button
            icon={<Play className="size-4" />}
            disabled={!canStart || state.isStarting}
            // Settings changed but not saved are saved first, not lost (issue 29).
            onClick={() => state.startGame(isDirty ? edited : undefined)}
          >
            {T.startGame}
          </Button>
          {!canStart && <p className="text-center text-sm text-muted">{T.needTwoPlayers}</p>}
        </div>
      </div>
    </Card>
  );
}

/** The lobby's invite link: opens this lobby for whoever follows it (after sign-in), private or not. */
function InviteLink({ game }: { game: PictionaryGame }) {
  const url = `${window.location.origin}/minigames/pictionary?join=${game.id}`;
  return (
    <div className="mt-5">
      <p className="mb-1.5 flex items-center gap-1.5 text-sm font-medium">
        <Link2 className="size-4 text-muted" />
        {T.inviteLink}
        {game.isPrivate && <span className="text-xs font-normal text-muted">· {T.privateRoom}</span>}
      </p>
      <InviteLinkField url={url} label={T.inviteLink} inputClassName="bg-surface-2" />
    </div>
  );
}

function ReadOnlySettings({ game, state }: { game: PictionaryGame; state: State }) {
  const names = game.wordBanks.map((id) => state.wordBanks.find((b) => b.id === id)?.name ?? id);
  return (
    <Card data-testid="readonly-settings">
      <CardTitle icon={<Settings className="size-4" />}>{T.settings}</CardTitle>
      <p className="mb-4 text-sm text-muted">{T.onlyHost}</p>
      <dl className="space-y-3 text-sm">
        <Row label={T.rounds} value={String(game.maxRounds)} testId="ro-rounds" />
        <Row label={T.maxPlayers} value={String(game.maxPlayers)} testId="ro-max-players" />
        <Row label={T.hints} value={String(game.hints)} testId="ro-hints" />
        <Row label={T.drawTime} value={T.drawTimeValue(game.drawSeconds)} testId="ro-draw-time" />
        <Row label={T.wordCategories} value={names.join(', ')} testId="ro-banks" />
        <Row label={T.customWords} value={String(game.customWordCount)} testId="ro-custom-count" />
      </dl>
      <p className="mt-5 rounded-xl border border-border bg-surface-2 px-4 py-3 text-center text-sm">
        {T.waitingForHost}
      </p>
    </Card>
  );
}

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted">{label}</dt>
      <dd className="text-right font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Slider(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  /** The value as shown beside the label (the number itself by default). */
  shown?: string;
  onChange: (v: number) => void;
}) {
  return (
    <label className="block">
      <span className="mb-2 flex justify-between text-sm font-medium">
        {props.label}
        <span className="text-muted">{props.shown ?? props.value}</span>
      </span>
      <input
        type="range"
        aria-label={props.label}
        className="w-full accent-[#5865f2]"
        min={props.min}
        max={props.max}
        step={props.step}
        aria-valuetext={props.shown}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </label>
  );
}
