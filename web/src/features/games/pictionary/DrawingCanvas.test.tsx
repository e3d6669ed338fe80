// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CanvasHandle, DrawingCanvas } from './DrawingCanvas.tsx';

afterEach(cleanup);

// jsdom has no 2D context: the canvas paints nothing here, which these checks do not need.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

function drawer() {
  render(
    <DrawingCanvas
      handle={createRef<CanvasHandle>()}
      turnNumber={1}
      initial={() => []}
      canDraw
      tool="brush"
      color="#000000"
      size={5}
      onSend={vi.fn()}
    />,
  );
  return screen.getByTestId('pictionary-canvas');
}

describe('the drawer’s press keeps the page’s text unselectable only while it lasts', () => {
  it('a press on the canvas marks the page; a release anywhere unmarks it', () => {
    const canvas = drawer();
    fireEvent.pointerDown(canvas, { clientX: 10, clientY: 10, buttons: 1 });
    expect(document.body.classList.contains('pictionary-drawing')).toBe(true);
    fireEvent.pointerUp(window);
    expect(document.body.classList.contains('pictionary-drawing')).toBe(false);
  });

  it('a touch the browser takes over (pointercancel outside the canvas) unmarks it too', () => {
    const canvas = drawer();
    fireEvent.pointerDown(canvas, { clientX: 10, clientY: 10, buttons: 1 });
    fireEvent.pointerLeave(canvas);
    fireEvent.pointerCancel(window);
    expect(document.body.classList.contains('pictionary-drawing')).toBe(false);
  });
});
