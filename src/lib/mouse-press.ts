/** A press of the main mouse button (or a pen): its click follows. Not touch, which may start a scroll. */
export function isMousePress(event: Pick<PointerEvent, 'button' | 'pointerType'>): boolean {
  return event.button === 0 && (event.pointerType === 'mouse' || event.pointerType === 'pen');
}
