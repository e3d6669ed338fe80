import { FILES_TEXTS, type FileItem } from '@guildhall/common';
import { describe, expect, test, vi } from 'vitest';
import { SERVER_FAULT_TEXT } from '../../api/server-fault.ts';
import { runUpload, type UploadDeps, UploadError } from './upload-task.ts';

const item = { id: 'f1', name: 'a.txt' } as FileItem;
const file = new File(['hello world'], 'a.txt');

function deps(over: Partial<UploadDeps> = {}): UploadDeps {
  return {
    send: async (_form, _token, onSent) => {
      onSent(5, 10);
      onSent(10, 10);
      return {
        status: 200,
        statusText: 'OK',
        body: JSON.stringify({ success: true, fileId: 'f1', totalChunks: 1 }),
      };
    },
    status: vi.fn(async () => ({ success: true as const, completed: true, progress: 1 })),
    complete: vi.fn(async () => item),
    sleep: async () => {},
    ...over,
  };
}

describe('runUpload', () => {
  test('reports the milestones 15, byte progress, 35, mapped server progress and 100', async () => {
    const seen: number[] = [];
    const d = deps({
      status: vi
        .fn()
        .mockResolvedValueOnce({ success: true, completed: false, progress: 0.5 })
        .mockResolvedValueOnce({ success: true, completed: true, progress: 1 }),
    });
    const result = await runUpload(
      file,
      { folderId: 'dir', category: null },
      { token: 't', maxUploadBytes: null, onProgress: (p) => seen.push(p.progress) },
      d,
    );
    expect(result).toBe(item);
    expect(seen).toEqual([15, 25, 34, 35, 65, 95, 100]);
    expect(d.complete).toHaveBeenCalledWith({
      fileId: 'f1',
      fileName: 'a.txt',
      fileSize: 11,
      totalChunks: 1,
    });
  });

  test('a resumable send that loses its connection reports "reconnecting" at its progress, then goes on', async () => {
    const seen: { progress: number; reconnecting?: boolean }[] = [];
    await runUpload(
      file,
      { folderId: null, category: null },
      {
        token: 't',
        maxUploadBytes: null,
        onProgress: (p) => seen.push({ progress: p.progress, reconnecting: p.reconnecting }),
      },
      deps({
        sendResumable: async (_file, target, token, onSent, onReconnecting) => {
          expect(target).toEqual({ folderId: null, category: null });
          expect(token).toBe('t');
          onSent(5, 10);
          onReconnecting(true);
          onReconnecting(false);
          onSent(10, 10);
          return { status: 200, statusText: 'OK', body: '{"success":true,"fileId":"f1","totalChunks":1}' };
        },
      }),
    );
    expect(seen.slice(0, 5)).toEqual([
      { progress: 15, reconnecting: undefined },
      { progress: 25, reconnecting: undefined },
      { progress: 25, reconnecting: true },
      { progress: 25, reconnecting: false },
      { progress: 34, reconnecting: undefined },
    ]);
    expect(seen.at(-1)).toEqual({ progress: 100, reconnecting: undefined });
  });

  test('sends the folder and category fields before the file', async () => {
    let fields: string[] = [];
    await runUpload(
      file,
      { folderId: 'dir', category: 'docs' },
      { token: null, maxUploadBytes: null, onProgress: () => {} },
      deps({
        send: async (form) => {
          fields = [...form.keys()];
          return { status: 200, statusText: 'OK', body: '{"success":true,"fileId":"f1","totalChunks":1}' };
        },
      }),
    );
    expect(fields).toEqual(['category', 'folderId', 'file']);
  });

  test('a refused upload says why: "Upload failed: {reason}"', async () => {
    const d = deps({
      send: async () => ({
        status: 413,
        statusText: 'Payload Too Large',
        body: '{"error":"File is too large: the limit is 4 GB"}',
      }),
    });
    await expect(
      runUpload(
        file,
        { folderId: null, category: null },
        { token: null, maxUploadBytes: null, onProgress: () => {} },
        d,
      ),
    ).rejects.toThrow('Upload failed: File is too large: the limit is 4 GB');
    const plain = deps({ send: async () => ({ status: 502, statusText: 'Bad Gateway', body: '<html>' }) });
    await expect(
      runUpload(
        file,
        { folderId: null, category: null },
        { token: null, maxUploadBytes: null, onProgress: () => {} },
        plain,
      ),
    ).rejects.toThrow('Upload failed: Bad Gateway');
    // A fault's own text never reaches the member (api/server-fault.ts); a reported one does.
    for (const [body, shown] of [
      ['{"error":"boom"}', SERVER_FAULT_TEXT],
      ['{"error":"Storage quota exceeded","code":"QUOTA_EXCEEDED"}', 'Storage quota exceeded'],
    ] as const) {
      const faulty = deps({ send: async () => ({ status: 507, statusText: 'Insufficient Storage', body }) });
      await expect(
        runUpload(
          file,
          { folderId: null, category: null },
          { token: null, maxUploadBytes: null, onProgress: () => {} },
          faulty,
        ),
      ).rejects.toThrow(`Upload failed: ${shown}`);
    }
  });

  test('a file over the limit is refused before anything is sent', async () => {
    const send = vi.fn();
    await expect(
      runUpload(
        file,
        { folderId: null, category: null },
        { token: null, maxUploadBytes: 5, onProgress: () => {} },
        deps({ send }),
      ),
    ).rejects.toBeInstanceOf(UploadError);
    expect(send).not.toHaveBeenCalled();
  });

  test('polls at most 60 times (failed polls retried) and then gives the timeout text', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const d = deps({
      status: vi.fn(async () => {
        calls += 1;
        if (calls % 2 === 0) throw new Error('flaky');
        return { success: true as const, completed: false, progress: 0.1 };
      }),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await expect(
      runUpload(
        file,
        { folderId: null, category: null },
        { token: null, maxUploadBytes: null, onProgress: () => {} },
        d,
      ),
    ).rejects.toThrow(FILES_TEXTS.uploadTimeout);
    expect(calls).toBe(60);
    expect(sleeps.filter((ms) => ms === 800)).toHaveLength(30);
    expect(sleeps.filter((ms) => ms === 1000)).toHaveLength(30);
  });
});
