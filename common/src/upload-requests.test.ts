import { describe, expect, test } from 'vitest';
import { isTypeAllowed, UPLOAD_REQUEST_TEXTS, UploadRequestCreateBody } from './upload-requests.ts';

describe('upload links (issue 45)', () => {
  test('allowed types match the name by extension and the declared type by MIME pattern; none means any', () => {
    expect(isTypeAllowed([], 'x.exe', undefined)).toBe(true);
    expect(isTypeAllowed(['.pdf'], 'Scan.PDF', '')).toBe(true);
    expect(isTypeAllowed(['.pdf'], 'scan.pdf.exe', 'application/pdf')).toBe(false);
    expect(isTypeAllowed(['image/*'], 'p.bin', 'image/png')).toBe(true);
    expect(isTypeAllowed(['image/*'], 'p.png', 'text/plain')).toBe(false);
    expect(isTypeAllowed(['application/pdf'], 'a', 'application/pdf')).toBe(true);
  });

  test('a type list refuses what is not an extension or a MIME pattern, and the texts say the limits', () => {
    const body = {
      folderId: 'f',
      maxTotalBytes: 1,
      maxFiles: 1,
      expiresAt: '2030-01-01T00:00:00Z',
    };
    expect(
      UploadRequestCreateBody.safeParse({ ...body, allowedTypes: ['.PDF', 'Image/*'] }).data?.allowedTypes,
    ).toEqual(['.pdf', 'image/*']);
    for (const bad of ['pdf', 'image/**', '.', '*/*', '.p\u0000']) {
      expect(UploadRequestCreateBody.safeParse({ ...body, allowedTypes: [bad] }).success, bad).toBe(false);
    }
    expect(UPLOAD_REQUEST_TEXTS.totalExceeded(5 * 1024 * 1024, 2 * 1024 * 1024)).toBe(
      'This upload link takes at most 5 MB in all; 2 MB left',
    );
    expect(UPLOAD_REQUEST_TEXTS.filesExceeded(1)).toBe('This upload link takes one file only');
  });
});
