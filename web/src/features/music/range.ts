import { cn } from '../../ui/cn.ts';

/**
 * A styled native range input (scrubber, equalizer): keyboard, touch and screen readers for free.
 * The filled part comes from the `--pct` custom property; the input is 24 px tall for fingers while
 * the track is drawn 8 px thick.
 */
export function rangeClass(extra?: string): string {
  return cn(
    '[--lo:0%] [--hi:var(--pct)]',
    'h-6 w-full cursor-pointer appearance-none bg-transparent disabled:cursor-not-allowed disabled:opacity-50',
    '[&::-webkit-slider-runnable-track]:h-2 [&::-webkit-slider-runnable-track]:rounded-full',
    '[&::-webkit-slider-runnable-track]:bg-[linear-gradient(to_right,var(--color-border)_var(--lo),var(--color-brand)_var(--lo),var(--color-brand)_var(--hi),var(--color-border)_var(--hi))]',
    '[&::-webkit-slider-thumb]:-mt-1 [&::-webkit-slider-thumb]:size-4 [&::-webkit-slider-thumb]:appearance-none',
    // The thumb in the brand colour with a ring of the surface: visible on the light theme's pale track too.
    '[&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-brand [&::-webkit-slider-thumb]:shadow',
    '[&::-webkit-slider-thumb]:border-2 [&::-webkit-slider-thumb]:border-solid [&::-webkit-slider-thumb]:border-surface',
    '[&::-moz-range-track]:h-2 [&::-moz-range-track]:rounded-full [&::-moz-range-track]:bg-border',
    '[&::-moz-range-progress]:h-2 [&::-moz-range-progress]:rounded-full [&::-moz-range-progress]:bg-brand',
    '[&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-2 [&::-moz-range-thumb]:border-surface [&::-moz-range-thumb]:bg-brand',
    extra,
  );
}
