/** Where focus goes on the table page after it is drawn again, or after a dialog closes. */

/**
 * After a draw, unless it focused something else: an element drawn again as it was (the quick chat's panel is moved
 * into each draw, not made anew) gets back the focus it lost in the move; one made anew (a pass slot, "Go to your
 * hand") gives it to the element that took its place, known by the same `data-focus-key`. Else a view that arrives (another seat
 * passing) would leave a keyboard player's focus on the page.
 */
export function keepFocusOn(focused: Element | null): void {
  const now = document.activeElement;
  if (!(focused instanceof HTMLElement) || focused === document.body) return;
  if (now !== null && now !== document.body) return;
  if (focused.isConnected) {
    focused.focus({ preventScroll: true });
    return;
  }
  const key = focused.dataset.focusKey;
  if (key !== undefined) document.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
}

export function focusOnHand(): void {
  document.querySelector<HTMLElement>('.hand-cards .card-button[tabindex="0"]')?.focus();
}

/** After a summary or the game-over screen: the hand, else (the game is over) the first thing to do on the page. */
export function focusAfterDialog(): void {
  focusOnHand();
  if (document.activeElement !== document.body && document.activeElement !== null) return;
  document.querySelector<HTMLElement>('.game-over button, .game-over a')?.focus();
}
