import { describe, expect, test } from 'vitest';
import { youtubeVideoId } from './youtube.ts';

describe('YouTube links', () => {
  test('finds the video id in watch, short, shorts, embed and music links', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RD',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
    ]) {
      expect(youtubeVideoId(url), url).toBe('dQw4w9WgXcQ');
    }
  });

  test('refuses other hosts, malformed ids and non-URLs', () => {
    for (const url of [
      'https://example.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=short',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ%3Cscript',
      'library:dQw4w9WgXcQ',
      'not a url',
    ]) {
      expect(youtubeVideoId(url), url).toBeNull();
    }
  });
});
