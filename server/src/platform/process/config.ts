import { z } from 'zod';
import { defineConfig } from '../config/define.ts';

/** The programs the process spawner runs, named once: music plays and probes with them, files makes video posters. */
export type ToolsConfig = { ffmpegPath: string; ffprobePath: string };

export const toolsConfig = defineConfig({
  title: 'Programs',
  vars: {
    FFMPEG_PATH: {
      schema: z.string().trim().min(1, { error: 'FFMPEG_PATH must not be empty' }).default('ffmpeg'),
      doc: 'the ffmpeg binary (the music bot plays through it, video posters are cut with it)',
    },
    FFPROBE_PATH: {
      schema: z.string().trim().min(1, { error: 'FFPROBE_PATH must not be empty' }).default('ffprobe'),
      doc: 'the ffprobe binary (the length of a library song)',
    },
  },
  build: (e): ToolsConfig => ({ ffmpegPath: e.FFMPEG_PATH, ffprobePath: e.FFPROBE_PATH }),
});
