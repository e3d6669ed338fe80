import { z } from 'zod';
import { defineConfig, type SliceOf } from '../config/define.ts';

export const toolsConfig = defineConfig({
  title: 'Programs',
  vars: {
    FFMPEG_PATH: {
      field: 'ffmpegPath',
      schema: z.string().trim().min(1, { error: 'FFMPEG_PATH must not be empty' }).default('ffmpeg'),
      doc: 'the ffmpeg binary (the music bot plays through it, video posters are cut with it)',
    },
    FFPROBE_PATH: {
      field: 'ffprobePath',
      schema: z.string().trim().min(1, { error: 'FFPROBE_PATH must not be empty' }).default('ffprobe'),
      doc: 'the ffprobe binary (the length of a library song)',
    },
  },
});

/** The programs the process spawner runs, named once: music plays and probes with them, files makes video posters. */
export type ToolsConfig = SliceOf<typeof toolsConfig>;
