import { TICTACTOE_TEXTS as T } from '@guildhall/common';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { BASE_URL } from './env.ts';

/** Page object for the tic-tac-toe screen (/minigames/tic-tac-toe). */
export class TicTacToeScreen {
  readonly page: Page;
  readonly token: string;
  constructor(page: Page, token: string) {
    this.page = page;
    this.token = token;
  }

  /**
   * Leaves one delivery path by blocking the other in the browser's network, as a proxy would: polling
   * false answers every poll of a game with its first state (moves must arrive by push); realtime false
   * refuses the Socket.IO connection, WebSocket and long-polling alike (moves must arrive by polling).
   * Call before open().
   */
  static async configure(context: BrowserContext, switches: { polling?: boolean; realtime?: boolean }) {
    if (switches.polling === false) {
      // Every poll of a game gets the game's first answer again: a stale state the screen ignores
      // (it keeps the newest version), so news can only come by push.
      const frozen = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
      await context.route(/\/api\/games\/tic-tac-toe\/[0-9a-f-]{36}$/, async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        const url = route.request().url();
        let answer = frozen.get(url);
        if (!answer) {
          const response = await route.fetch();
          answer = { status: response.status(), headers: response.headers(), body: await response.body() };
          frozen.set(url, answer);
        }
        return route.fulfill(answer);
      });
    }
    if (switches.realtime === false) {
      await context.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
      await context.route(/\/socket\.io\//, (route) => route.abort());
    }
  }

  async open(): Promise<void> {
    await this.page.goto('/minigames/tic-tac-toe');
    await this.page.getByRole('heading', { name: T.title }).waitFor();
  }

  get findButton(): Locator {
    return this.page.getByRole('button', { name: T.findGame, exact: true });
  }
  get board(): Locator {
    return this.page.getByTestId('board');
  }
  cell(i: number): Locator {
    return this.page.getByTestId(`cell-${i}`);
  }
  get headline(): Locator {
    return this.page.getByTestId('status-headline');
  }
  get detail(): Locator {
    return this.page.getByTestId('status-detail');
  }
  get gameId(): Locator {
    return this.page.getByTestId('game-id');
  }
  get status(): Locator {
    return this.page.getByTestId('game-status');
  }
  get turn(): Locator {
    return this.page.getByTestId('game-turn');
  }
  get winner(): Locator {
    return this.page.getByTestId('game-winner');
  }
  playerName(mark: 'X' | 'O'): Locator {
    return this.page.getByTestId(`player-${mark}-name`);
  }
  player(mark: 'X' | 'O'): Locator {
    return this.page.getByTestId(`player-${mark}`);
  }
  get live(): Locator {
    return this.page.getByText('Live', { exact: true });
  }
  get leaveButton(): Locator {
    return this.page.getByRole('button', { name: T.leaveGame });
  }
  get rematchButton(): Locator {
    return this.page.getByRole('button', { name: T.rematch, exact: true });
  }
  get claimButton(): Locator {
    return this.page.getByRole('button', { name: T.claimWin });
  }
  get opponentLeft(): Locator {
    return this.page.getByTestId('opponent-left');
  }
  get acceptRematchButton(): Locator {
    return this.page.getByRole('button', { name: T.acceptRematch });
  }
  toast(text: string): Locator {
    return this.page.locator('[data-sonner-toast]', { hasText: text });
  }

  /** Calls the API as this player, as a hand-made request would (bypassing the screen's own checks). */
  async api(method: 'GET' | 'POST', path: string, data?: unknown) {
    const res = await this.page.request.fetch(`${BASE_URL}/api/games/tic-tac-toe${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}` },
      ...(data === undefined ? {} : { data }),
    });
    return { status: res.status(), body: await res.json() };
  }

  /** Leaves whatever unfinished game this player is in, so no waiting game outlives its test. */
  async cleanUp(): Promise<void> {
    const current = await this.api('GET', '/current');
    if (current.body.game) await this.api('POST', `/${current.body.game.id}/leave`);
  }
}
