import { FILES_TEXTS } from '@guildhall/common';
import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from './env.ts';

export type FileItemJson = { id: string; name: string; type: 'file' | 'folder' };

/** Page object for the Shared File System screen (/filesystem), plus API seeding as the same member. */
export class FilesScreen {
  readonly page: Page;
  readonly token: string;
  constructor(page: Page, token: string) {
    this.page = page;
    this.token = token;
  }

  async open(folderId?: string): Promise<void> {
    await this.page.goto(folderId ? `/filesystem?folder=${folderId}` : '/filesystem');
    await this.page.getByRole('heading', { name: 'Shared File System' }).waitFor();
  }

  // ---- seeding through the API (fast, and keeps tests independent of each other) ----

  private async api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  async seedFolder(name: string, parentId?: string): Promise<FileItemJson> {
    return (await this.api<{ data: FileItemJson }>('POST', '/api/folders', { name, parentId })).data;
  }

  async seedFile(name: string, content: Buffer, folderId?: string): Promise<FileItemJson> {
    const form = new FormData();
    if (folderId) form.append('folderId', folderId);
    form.append('file', new Blob([new Uint8Array(content)]), name);
    const res = await fetch(`${BASE_URL}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    const start = (await res.json()) as { fileId: string; totalChunks: number };
    const done = await this.api<{ data: FileItemJson }>('POST', '/upload/complete', {
      fileId: start.fileId,
      fileName: name,
      fileSize: content.length,
      totalChunks: start.totalChunks,
    });
    return done.data;
  }

  async seedShare(fileId: string, accessLevel: 'user' | 'public', expiresAt?: string) {
    return (
      await this.api<{ data: { id: string; token: string; url: string; expiresAt: string | null } }>(
        'POST',
        `/api/files/${fileId}/share`,
        {
          accessLevel,
          ...(expiresAt ? { expiresAt } : {}),
        },
      )
    ).data;
  }

  // ---- the screen ----

  get uploadInput(): Locator {
    return this.page.getByTestId('upload-input');
  }
  get count(): Locator {
    return this.page.getByTestId('files-count');
  }
  get breadcrumb(): Locator {
    return this.page.getByRole('navigation', { name: 'Breadcrumb' });
  }
  crumb(name: string): Locator {
    return this.breadcrumb.getByRole('button', { name, exact: true });
  }
  get filter(): Locator {
    return this.page.getByPlaceholder('Filter by name...');
  }
  card(name: string): Locator {
    return this.page.locator(`[data-testid=file-card][data-name="${name}"]`);
  }
  row(name: string): Locator {
    return this.page.locator(`[data-testid=file-row][data-name="${name}"]`);
  }
  get cards(): Locator {
    return this.page.getByTestId('file-card');
  }
  get rows(): Locator {
    return this.page.getByTestId('file-row');
  }
  uploadCard(name: string): Locator {
    return this.page.getByTestId('upload-card').filter({ hasText: name });
  }
  get dialog(): Locator {
    return this.page.getByRole('dialog');
  }
  get emptyState(): Locator {
    return this.page.getByText(FILES_TEXTS.noFilesFound, { exact: true });
  }

  async listView(): Promise<void> {
    await this.page.getByRole('button', { name: 'List view' }).click();
  }
  async gridView(): Promise<void> {
    await this.page.getByRole('button', { name: 'Grid view' }).click();
  }

  async newFolder(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New Folder' }).click();
    const input = this.dialog.getByRole('textbox');
    await input.fill(name);
    await input.press('Enter');
  }

  async openFolderCard(name: string): Promise<void> {
    await this.card(name).getByRole('button', { name }).first().click();
  }

  async menu(name: string, action: string): Promise<void> {
    const item = this.card(name).or(this.row(name));
    await item.hover();
    await item.getByRole('button', { name: `Actions for ${name}` }).click();
    await this.page.getByRole('menuitem', { name: action, exact: true }).click();
  }

  async select(name: string): Promise<void> {
    await this.page.getByRole('checkbox', { name: `Select ${name}` }).check();
  }

  /** Names shown in the current grid or list, in order. */
  async names(): Promise<string[]> {
    const items = this.page.locator('[data-testid=file-card], [data-testid=file-row]');
    return items.evaluateAll((els) => els.map((e) => e.getAttribute('data-name') ?? ''));
  }
}
