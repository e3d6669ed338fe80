import {
  DISCORD_NOTE_EVENT_LABELS,
  DISCORD_NOTE_EVENTS,
  type DiscordNotesSettings,
  type DiscordNotesState,
} from '@guildhall/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, MessageSquareText, RefreshCw, Save, Send } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card, CardTitle } from '../../ui/Card.tsx';
import { cn } from '../../ui/cn.ts';
import {
  channelChoices,
  fetchDiscordChannels,
  fetchDiscordNotes,
  isChanged,
  isOn,
  saveDiscordNotes,
  sendTestNote,
} from './discord-notes.ts';
import { inputClass } from './fields.tsx';

const KEY = ['admin', 'discord-notes'] as const;
const CHANNELS_KEY = [...KEY, 'channels'] as const;

/**
 * Channel notes (issue 44): the bot posts a short note in one channel of the server for the events an
 * admin switches on (all off by default); the channel is picked from the bot's view of the server, and
 * "Send test note" checks the saved setting.
 */
export function DiscordNotesCard({ disabled }: { disabled: boolean }) {
  const queryClient = useQueryClient();
  const notes = useQuery({ queryKey: KEY, queryFn: fetchDiscordNotes });
  const onError = (e: Error) => toast.error(e.message);
  const save = useMutation({
    mutationFn: ({ body }: { body: DiscordNotesSettings; done: () => void }) => saveDiscordNotes(body),
    onSuccess: (state, { done }) => {
      queryClient.setQueryData(KEY, state);
      done();
      toast.success('Channel notes saved');
    },
    onError,
  });
  const test = useMutation({ mutationFn: sendTestNote, onSuccess: (m) => toast.success(m), onError });
  const state = notes.data;

  return (
    <Card className="mb-6" data-testid="discord-notes">
      <CardTitle
        icon={<MessageSquareText className="size-4" />}
        action={state && (isOn(state.settings) ? <Badge tone="success">On</Badge> : <Badge>Off</Badge>)}
      >
        Channel notes
      </CardTitle>
      <p className="mb-4 text-sm text-muted">
        The bot posts a short note in one channel of the server when something happens here. Notes never
        mention anyone.
      </p>
      {notes.isPending && <p className="text-sm text-muted">Loading the channel notes settings…</p>}
      {notes.isError && (
        <p className="text-sm text-danger-text">
          Could not load the channel notes settings: {notes.error.message}
        </p>
      )}
      {state?.notConfigured && (
        <p
          role="status"
          data-testid="discord-notes-not-configured"
          className="mb-4 flex items-start gap-2 rounded-lg border border-warning/30 bg-warning/10 px-3 py-2 text-sm text-warning-text"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" />
          <span>{state.notConfigured}</span>
        </p>
      )}
      {state && (
        <NotesForm
          state={state}
          disabled={disabled}
          isSaving={save.isPending}
          isTesting={test.isPending}
          onSave={(body, done) => save.mutate({ body, done })}
          onTest={() => test.mutate()}
        />
      )}
    </Card>
  );
}

function NotesForm({
  state,
  disabled,
  isSaving,
  isTesting,
  onSave,
  onTest,
}: {
  state: DiscordNotesState;
  disabled: boolean;
  isSaving: boolean;
  isTesting: boolean;
  onSave: (body: DiscordNotesSettings, done: () => void) => void;
  onTest: () => void;
}) {
  const ids = useId();
  const channels = useQuery({ queryKey: CHANNELS_KEY, queryFn: fetchDiscordChannels, retry: false });
  const saved = state.settings;
  // null: showing the settings in force (and following them when they change on the server).
  const [edited, setEdited] = useState<DiscordNotesSettings | null>(null);
  const draft = edited ?? saved;
  const isDirty = edited !== null && isChanged(draft, saved);
  const busy = disabled || isSaving;
  const listed = channels.data;
  // Without the bot the card already says so above: no second message about the channels.
  const problem = state.notConfigured
    ? null
    : channels.isError
      ? channels.error.message
      : (listed?.problem ?? null);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (isDirty) onSave(draft, () => setEdited(null));
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Channel notes settings" className="space-y-5 text-sm">
      <div className="space-y-1.5">
        <label htmlFor={`${ids}-channel`} className="block font-medium">
          Channel
        </label>
        <select
          id={`${ids}-channel`}
          aria-describedby={`${ids}-channel-help`}
          className={cn(inputClass, 'cursor-pointer sm:max-w-80')}
          value={draft.channelId ?? ''}
          disabled={busy || channels.isPending}
          onChange={(e) => setEdited({ ...draft, channelId: e.target.value || null })}
        >
          <option value="">No channel (no notes)</option>
          {channelChoices(listed?.channels ?? [], saved.channelId).map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
        <p id={`${ids}-channel-help`} className="text-xs text-muted">
          {channels.isPending
            ? "Listing the server's channels…"
            : `Text channels of ${listed?.guildName ?? 'the server'} as the bot sees them. The bot needs View Channel and Send Messages there.`}
        </p>
        {problem && (
          <div
            data-testid="discord-notes-channels-error"
            className="flex flex-wrap items-center gap-2 rounded-lg border border-border bg-surface-2 px-3 py-2"
          >
            <span className="min-w-56 flex-1">{problem}</span>
            <Button
              size="sm"
              variant="secondary"
              icon={<RefreshCw className="size-4" />}
              onClick={() => void channels.refetch()}
            >
              Try again
            </Button>
          </div>
        )}
      </div>

      <fieldset>
        <legend className="font-medium">Post a note when</legend>
        <ul className="mt-2 space-y-3">
          {DISCORD_NOTE_EVENTS.map((event) => (
            <li key={event}>
              <label className="flex items-start gap-2.5">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 cursor-pointer accent-brand"
                  checked={draft.events[event]}
                  disabled={busy}
                  aria-describedby={`${ids}-${event}-hint`}
                  onChange={(e) =>
                    setEdited({ ...draft, events: { ...draft.events, [event]: e.target.checked } })
                  }
                />
                <span>
                  <span className="block">{DISCORD_NOTE_EVENT_LABELS[event].label}</span>
                  <span id={`${ids}-${event}-hint`} className="block text-xs text-muted">
                    {DISCORD_NOTE_EVENT_LABELS[event].hint}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>

      {/* The test note apart (left; below on a phone), the form's own Cancel and Save together. */}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Button
          variant="secondary"
          className="self-start"
          icon={<Send className="size-4" />}
          // The test note checks what is saved: save first.
          disabled={busy || isDirty || isTesting || !saved.channelId || state.notConfigured !== null}
          onClick={onTest}
        >
          {isTesting ? 'Sending…' : 'Send test note'}
        </Button>
        <div className="flex flex-wrap items-center justify-end gap-2">
          {isDirty && (
            <span className="w-full font-medium text-warning-text sm:mr-2 sm:w-auto" role="status">
              Unsaved changes
            </span>
          )}
          <Button variant="ghost" disabled={busy || !isDirty} onClick={() => setEdited(null)}>
            Cancel
          </Button>
          <Button type="submit" icon={<Save className="size-4" />} disabled={busy || !isDirty}>
            Save settings
          </Button>
        </div>
      </div>
    </form>
  );
}
