import { PICTIONARY_CANVAS, PICTIONARY_TEXTS as T } from '@guildhall/common';
import type { Locator, Page } from '@playwright/test';

/** Page object for the Pictionary screen (/minigames/pictionary). */
export class PictionaryScreen {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.goto('/minigames/pictionary');
    await this.page.getByRole('heading', { name: T.title }).waitFor();
  }

  get findButton(): Locator {
    return this.page.getByRole('button', { name: T.findGame, exact: true });
  }
  get playerCount(): Locator {
    return this.page.getByTestId('player-count');
  }
  slider(label: string): Locator {
    return this.page.getByRole('slider', { name: label });
  }
  category(name: string): Locator {
    return this.page.getByRole('checkbox', { name: new RegExp(`^${name}`) });
  }
  get customWords(): Locator {
    return this.page.getByPlaceholder(T.customWordsPlaceholder);
  }
  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }
  readOnly(what: 'rounds' | 'max-players' | 'banks' | 'custom-count'): Locator {
    return this.page.getByTestId(`ro-${what}`);
  }
  get canvas(): Locator {
    return this.page.getByTestId('pictionary-canvas');
  }
  get secretWord(): Locator {
    return this.page.getByTestId('secret-word');
  }
  get prompt(): Locator {
    return this.page.getByTestId('drawer-prompt');
  }
  get round(): Locator {
    return this.page.getByTestId('round-indicator');
  }
  get guesses(): Locator {
    return this.page.getByTestId('guess');
  }
  get guessBox(): Locator {
    return this.page.getByPlaceholder(T.guessPlaceholder);
  }
  points(username: string): Locator {
    return this.page.getByTestId(`player-${username}`).getByTestId('points');
  }

  /** The three words offered to the drawer at the start of a turn (issue 29). */
  get wordOptions(): Locator {
    return this.page.getByTestId('word-option');
  }
  get wordPattern(): Locator {
    return this.page.getByTestId('word-pattern');
  }
  /** As the drawer: waits for the offered words (a reveal may come first) and picks one; the turn starts. */
  async chooseWord(index = 0): Promise<string> {
    const option = this.wordOptions.nth(index);
    await option.waitFor();
    const word = (await option.textContent())!;
    await option.click();
    await this.secretWord.waitFor();
    return word;
  }

  async guess(text: string): Promise<void> {
    await this.guessBox.fill(text);
    await this.page.getByRole('button', { name: 'Send guess' }).click();
  }

  /** Canvas coordinates (1000×600) → a point on the page, whatever size the canvas is shown at. */
  async pagePoint(x: number, y: number): Promise<{ x: number; y: number }> {
    const box = (await this.canvas.boundingBox())!;
    return {
      x: box.x + (x * box.width) / PICTIONARY_CANVAS.width,
      y: box.y + (y * box.height) / PICTIONARY_CANVAS.height,
    };
  }

  /** Presses at `from` and drags to `to` in `steps` moves, without releasing. */
  async pressAndDrag(from: [number, number], to: [number, number], steps = 20): Promise<void> {
    // A click on a tool below the canvas may have scrolled the page; the press must land on the canvas.
    await this.canvas.scrollIntoViewIfNeeded();
    const a = await this.pagePoint(...from);
    const b = await this.pagePoint(...to);
    await this.page.mouse.move(a.x, a.y);
    await this.page.mouse.down();
    for (let i = 1; i <= steps; i++) {
      await this.page.mouse.move(a.x + ((b.x - a.x) * i) / steps, a.y + ((b.y - a.y) * i) / steps);
    }
  }

  /**
   * A drag by a finger or a pen: pointer events of that type (what a phone or a tablet's browser sends), from
   * `from` to `to` and released.
   */
  async pointerDrag(from: [number, number], to: [number, number], pointerType: 'touch' | 'pen', steps = 10) {
    const a = await this.pagePoint(...from);
    const b = await this.pagePoint(...to);
    await this.canvas.evaluate(
      (el, { a, b, steps, pointerType }) => {
        const fire = (type: string, x: number, y: number) =>
          el.dispatchEvent(
            new PointerEvent(type, {
              bubbles: true,
              cancelable: true,
              pointerId: 7,
              pointerType,
              isPrimary: true,
              clientX: x,
              clientY: y,
              buttons: type === 'pointerup' ? 0 : 1,
            }),
          );
        fire('pointerdown', a.x, a.y);
        for (let i = 1; i <= steps; i++)
          fire('pointermove', a.x + ((b.x - a.x) * i) / steps, a.y + ((b.y - a.y) * i) / steps);
        fire('pointerup', b.x, b.y);
      },
      { a, b, steps, pointerType },
    );
  }

  /** The RGBA of one canvas pixel (canvas coordinates). */
  pixel(x: number, y: number): Promise<number[]> {
    return this.canvas.evaluate(
      (el, [px, py]) => [...(el as HTMLCanvasElement).getContext('2d')!.getImageData(px!, py!, 1, 1).data],
      [x, y],
    );
  }

  /** Every pixel of the canvas, as a PNG data URL (equal strings: equal pixels). */
  dataUrl(): Promise<string> {
    return this.canvas.evaluate((el) => (el as HTMLCanvasElement).toDataURL());
  }

  /** A drawer's tool button (Brush, Eraser, Fill), pressed. */
  async useTool(name: string): Promise<void> {
    await this.page.getByRole('button', { name, exact: true }).click();
  }

  /** A fingerprint of the whole canvas: how many pixels are not white, and a checksum of them. */
  fingerprint(): Promise<string> {
    return this.canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      let sum = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] !== 255 || d[i + 1] !== 255 || d[i + 2] !== 255) {
          inked += 1;
          sum = (sum * 31 + d[i]! + d[i + 1]! * 7 + d[i + 2]! * 13 + i) % 1_000_000_007;
        }
      }
      return `${inked}:${sum}`;
    });
  }
}

/** Whether an RGBA pixel is ink (not the white background). */
export function isInk(rgba: number[]): boolean {
  return rgba[0]! < 200 || rgba[1]! < 200 || rgba[2]! < 200;
}
