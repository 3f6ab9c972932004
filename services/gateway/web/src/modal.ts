/**
 * A modal dialog (the native <dialog>, so focus moves into it, the page
 * behind is inert and Escape closes it), for the hand summary, the game-over
 * screen, a confirmation and the rules.
 */
import { h } from './dom.js';
import { words } from './i18n/index.js';

export interface ModalOptions {
  readonly title: string;
  readonly className?: string;
  readonly body: readonly (Node | null)[];
  /** Buttons at the foot; the first is focused. */
  readonly actions: readonly HTMLButtonElement[];
  /** Called however the dialog closes (a button, Escape). */
  readonly onClose?: () => void;
}

export interface Modal {
  readonly element: HTMLDialogElement;
  close(): void;
}

let counter = 0;

export function openModal(options: ModalOptions): Modal {
  const id = `modal-title-${++counter}`;
  const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = h(
    'dialog',
    { class: `modal ${options.className ?? ''}`, 'aria-labelledby': id },
    h('h2', { id }, options.title),
    h('div', { class: 'modal-body' }, options.body),
    h('div', { class: 'modal-actions' }, options.actions),
  );
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    dialog.remove();
    options.onClose?.();
    if (returnTo?.isConnected) returnTo.focus({ preventScroll: true });
  };
  dialog.addEventListener('close', finish);
  document.body.append(dialog);
  dialog.showModal();
  // Focus goes to the first button, at the foot; the dialog still opens at its top, where its title and news are.
  options.actions[0]?.focus({ preventScroll: true });
  dialog.scrollTop = 0;
  return {
    element: dialog,
    close() {
      if (dialog.open) dialog.close();
      finish();
    },
  };
}

/** Asks a yes-or-no question; resolves true for yes. */
export function confirmModal(title: string, question: string, yes: string, no = words().friends.cancel): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = false;
    const yesButton = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        onclick: () => {
          answer = true;
          modal.close();
        },
      },
      yes,
    );
    const noButton = h('button', { type: 'button', onclick: () => modal.close() }, no);
    const modal = openModal({
      title,
      className: 'confirm',
      body: [h('p', {}, question)],
      actions: [noButton, yesButton],
      onClose: () => resolve(answer),
    });
  });
}
