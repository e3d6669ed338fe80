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
    '[&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:bg-white [&::-webkit-slider-thumb]:shadow',
    '[&::-moz-range-track]:h-2 [&::-moz-range-track]:rounded-full [&::-moz-range-track]:bg-border',
    '[&::-moz-range-progress]:h-2 [&::-moz-range-progress]:rounded-full [&::-moz-range-progress]:bg-brand',
    '[&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-0 [&::-moz-range-thumb]:bg-white',
    extra,
  );
}
