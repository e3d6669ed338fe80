import { hasLevel, MUSIC_HISTORY_TEXTS, MUSIC_LYRICS_TEXTS } from '@guildhall/common';
import { History, Library, ListMusic, MicVocal, Search } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '../../auth/useAuth.ts';
import { BackLink } from '../../ui/BackLink.tsx';
import { Card } from '../../ui/Card.tsx';
import { Page } from '../../ui/Page.tsx';
import { PageSpinner } from '../../ui/Spinner.tsx';
import { Banner } from './Banner.tsx';
import { BotBadge } from './BotBadge.tsx';
import { EffectsPanel } from './EffectsPanel.tsx';
import { HistoryTab } from './HistoryTab.tsx';
import { LyricsTab } from './LyricsTab.tsx';
import { NowPlaying } from './NowPlaying.tsx';
import { PlatformsPanel } from './PlatformsPanel.tsx';
import { PlaylistsTab } from './PlaylistsTab.tsx';
import { QueueList } from './QueueList.tsx';
import { QueueOptions } from './QueueOptions.tsx';
import { SearchTab } from './SearchTab.tsx';
import { ServerSelect } from './ServerSelect.tsx';
import { SessionPanel } from './SessionPanel.tsx';
import { SkippedTracks } from './SkippedTracks.tsx';
import { Tabs } from './Tabs.tsx';
import { useFeedback } from './useFeedback.ts';
import { useGuildChoice } from './useGuildChoice.ts';
import { useMusicActions } from './useMusicActions.ts';
import { useMusicStatus } from './useMusicStatus.ts';
import { usePlaylists } from './usePlaylists.ts';
import { VoiceChannelCard } from './VoiceChannelCard.tsx';

type TabKey = 'queue' | 'search' | 'playlists' | 'lyrics' | 'history';

/** /music (portal-tools §2): the music bot's control panel. */
export function MusicPage() {
  const { user } = useAuth();
  const feedback = useFeedback();
  const guild = useGuildChoice();
  const { entry, isLoading } = useMusicStatus(guild.guildId);
  const actions = useMusicActions(guild.guildId, feedback);
  const playlists = usePlaylists(guild.guildId, feedback);
  const [tab, setTab] = useState<TabKey>('queue');

  const status = entry?.status ?? null;
  // Viewers may watch; users and above search and control (portal-core §6).
  const isViewer = !hasLevel(user?.accessLevel, 'user');
  const canUse = !isViewer && !!status?.connected && !!guild.guildId;
  // The queue options are a rule over everyone's requests: moderators and above (issue 48).
  const canSetOptions = canUse && hasLevel(user?.accessLevel, 'moderator');
  const isSomethingPlaying = !!status?.currentSong;
  const canControl = canUse && isSomethingPlaying;
  const queue = status?.queue ?? [];

  return (
    <Page wide>
      <div className="mb-6 flex items-center justify-between gap-3">
        <BackLink to="/dashboard">
          <span>
            Back<span className="hidden sm:inline"> to Dashboard</span>
          </span>
        </BackLink>
        <ServerSelect guilds={guild.guilds} value={guild.guildId} onChange={guild.choose} />
      </div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-sm text-muted">Discord music bot</p>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Music Control</h1>
        </div>
        <BotBadge status={status} />
      </header>
      {isViewer && (
        <p
          data-testid="viewer-note"
          className="mb-6 rounded-xl border border-border bg-surface-2/60 px-4 py-3 text-sm text-muted"
        >
          You can follow what plays. Searching, playing and the controls need the User level: ask an
          administrator.
        </p>
      )}
      <Banner feedback={feedback.feedback} onDismiss={feedback.dismiss} />

      {guild.isLoading || (guild.guildId && isLoading) ? (
        <PageSpinner />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0 space-y-6">
            <VoiceChannelCard status={status} />
            <NowPlaying entry={entry} canControl={canControl} actions={actions} playlists={playlists} />
            <SkippedTracks skipped={actions.skipped} onDismiss={actions.dismissSkipped} />
            <Card className="p-4 sm:p-5">
              <Tabs<TabKey>
                selected={tab}
                onSelect={setTab}
                tabs={[
                  {
                    key: 'queue',
                    label: 'Queue',
                    icon: <ListMusic className="size-4" />,
                    badge: queue.length > 0 && (
                      <span className="rounded-full bg-brand/20 px-1.5 text-xs tabular-nums text-brand-text">
                        {queue.length}
                      </span>
                    ),
                  },
                  { key: 'search', label: 'Search', icon: <Search className="size-4" /> },
                  { key: 'playlists', label: 'Playlists', icon: <Library className="size-4" /> },
                  { key: 'lyrics', label: MUSIC_LYRICS_TEXTS.tab, icon: <MicVocal className="size-4" /> },
                  { key: 'history', label: MUSIC_HISTORY_TEXTS.tab, icon: <History className="size-4" /> },
                ]}
                panels={{
                  queue: (
                    <>
                      <QueueOptions
                        options={status?.options ?? null}
                        canChange={canSetOptions}
                        canChangeMemberOptions={canUse}
                        onChange={actions.setOption}
                      />
                      <QueueList
                        queue={queue}
                        canReorder={canUse}
                        onReorder={actions.reorder}
                        onRemove={actions.remove}
                        onPlayNext={actions.playNext}
                      />
                    </>
                  ),
                  search: (
                    <SearchTab
                      canSearch={!isViewer}
                      canPlay={canUse}
                      isSomethingPlaying={isSomethingPlaying}
                      onPlay={actions.play}
                      playlists={playlists}
                      showError={feedback.showError}
                    />
                  ),
                  playlists: (
                    <PlaylistsTab playlists={playlists} canPlay={canUse} showError={feedback.showError} />
                  ),
                  lyrics: <LyricsTab guildId={guild.guildId} entry={entry} isActive={tab === 'lyrics'} />,
                  history: (
                    <HistoryTab
                      guildId={guild.guildId}
                      currentEntryId={status?.currentSong?.entryId ?? null}
                      isActive={tab === 'history'}
                      canPlay={canUse}
                      onPlay={actions.play}
                      playlists={playlists}
                    />
                  ),
                }}
              />
            </Card>
          </div>
          <aside className="space-y-6">
            <SessionPanel status={status} />
            <PlatformsPanel />
            <EffectsPanel
              status={status}
              disabled={!canControl}
              onEffects={actions.setEffects}
              onEqualizer={actions.setEqualizer}
            />
          </aside>
        </div>
      )}
    </Page>
  );
}
