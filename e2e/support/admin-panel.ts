import type { Dialog, Locator, Page } from '@playwright/test';

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

  /** Clicks, answering the alert/confirm it opens; resolves to the dialog's text. */
  async clickExpectingDialog(target: Locator, answer: 'accept' | 'dismiss' = 'accept'): Promise<string> {
    const dialog = new Promise<Dialog>((resolve) => this.page.once('dialog', resolve));
    const click = target.click();
    const d = await dialog;
    const message = d.message();
    await (answer === 'accept' ? d.accept() : d.dismiss());
    await click;
    return message;
  }
}
