import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the admin panel (/admin). */
export class AdminPanel {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }

  async open(): Promise<void> {
    await this.page.goto('/admin');
    await this.page.getByRole('heading', { name: 'User Management' }).waitFor();
  }

  get apiStatus(): Locator {
    return this.page.getByTestId('api-status');
  }
  get errorBanner(): Locator {
    return this.page.getByTestId('admin-error');
  }
  get refreshButton(): Locator {
    return this.page.getByRole('button', { name: 'Refresh' });
  }
  get addToggle(): Locator {
    return this.page.getByRole('button', { name: 'Add New User' });
  }
  get addForm(): Locator {
    return this.page.getByRole('form', { name: 'Add New User' });
  }
  get approved(): Locator {
    return this.page.getByTestId('approved-users');
  }
  get pending(): Locator {
    return this.page.getByTestId('pending-users');
  }
  get audit(): Locator {
    return this.page.getByTestId('audit-trail');
  }
  userRow(id: string): Locator {
    return this.page.getByTestId(`user-row-${id}`);
  }
  pendingRow(id: string): Locator {
    return this.page.getByTestId(`pending-row-${id}`);
  }
  stat(key: 'total' | 'admins' | 'moderators' | 'regular'): Locator {
    return this.page.getByTestId(`stat-${key}-value`);
  }

  async fillAddForm(fields: {
    id?: string;
    username?: string;
    email?: string;
    level?: string;
  }): Promise<void> {
    const form = this.addForm;
    if (fields.id !== undefined) await form.getByLabel('User ID').fill(fields.id);
    if (fields.username !== undefined) await form.getByLabel('Username').fill(fields.username);
    if (fields.email !== undefined) await form.getByLabel('Email').fill(fields.email);
    if (fields.level !== undefined)
      await form.getByLabel('Access Level').selectOption({ label: fields.level });
  }

  /**
   * Clicks, then answers the in-app confirmation it opens (no native dialog may appear); resolves to
   * the dialog's text.
   */
  async clickExpectingConfirm(target: Locator, answer: 'accept' | 'dismiss' = 'accept'): Promise<string> {
    this.page.once('dialog', (d) => {
      throw new Error(`a native ${d.type()} appeared: ${d.message()}`);
    });
    await target.click();
    const dialog = this.page.getByRole('dialog');
    await dialog.waitFor();
    const message = (await dialog.getByTestId('confirm-message').textContent()) ?? '';
    await dialog.getByRole('button', { name: answer === 'accept' ? /^(Remove|OK)$/ : 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    return message;
  }

  /** Clicks, and expects `text` as the inline error in `scope` (no native alert may appear). */
  async clickExpectingInlineError(target: Locator, scope: Locator, text: string): Promise<void> {
    this.page.once('dialog', (d) => {
      throw new Error(`a native ${d.type()} appeared: ${d.message()}`);
    });
    await target.click();
    await expect(scope.getByRole('alert')).toHaveText(text);
  }
}
