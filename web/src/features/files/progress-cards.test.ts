import { describe, expect, it } from 'vitest';
import { cardLine, type ProgressCard } from './progress-cards.ts';

const upload = (over: Partial<ProgressCard>): ProgressCard => ({
  id: 'u',
  kind: 'upload',
  name: 'a.bin',
  progress: 15,
  state: 'active',
  totalBytes: 2048,
  sentBytes: 0,
  ...over,
});

describe('the transfer line (issue 17: no "Processing file... 0 Bytes" while bytes are sent)', () => {
  it('says Sending with the size while the bytes go, and the bytes once some have gone', () => {
    expect(cardLine(upload({}))).toEqual({ text: 'Sending file...', bytes: '2 KB' });
    expect(cardLine(upload({ progress: 24, sentBytes: 1024 }))).toEqual({
      text: 'Sending file...',
      bytes: '1 KB / 2 KB',
    });
  });

  it("keeps the spec's stage texts once the bytes are sent", () => {
    expect(cardLine(upload({ progress: 35, sentBytes: 2048 })).text).toBe('Uploading chunks...');
    expect(cardLine(upload({ progress: 96, sentBytes: 2048 })).text).toBe('Finalizing upload...');
    expect(cardLine(upload({ state: 'completed', progress: 100 })).text).toBe('Upload complete');
    expect(cardLine(upload({ state: 'error', message: 'File too large' })).text).toBe('File too large');
  });
});
