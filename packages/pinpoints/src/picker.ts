import { stableSelector } from './selector.js';

export interface PickerView {
  /** The widget's own element: never picked. */
  readonly host: Element;
  /** Draws the highlight over `box`, or hides it. */
  highlight(box: DOMRect | null): void;
  /** Shows or hides the "click an element, Escape to cancel" hint. */
  hint(visible: boolean): void;
}

/**
 * Lets the visitor point at an element of the page: hovering highlights, a click chooses,
 * Escape cancels. With the keyboard, Tab moves through the page's elements (each focused
 * one is highlighted) and Enter chooses. The page's own handlers see none of these events
 * while picking. Resolves with the element's selector, or null when cancelled.
 */
export function pickElement(view: PickerView): Promise<{ selector: string; element: Element } | null> {
  return new Promise((resolve) => {
    let current: Element | null = null;
    const point = (target: EventTarget | null): void => {
      const element = target instanceof Element && !view.host.contains(target) && target !== view.host ? target : null;
      current = element;
      view.highlight(element === null ? null : element.getBoundingClientRect());
    };
    const onMove = (event: MouseEvent): void => point(document.elementFromPoint(event.clientX, event.clientY));
    const onFocus = (event: FocusEvent): void => point(event.target);
    const swallow = (event: Event): void => {
      if (event.composedPath().includes(view.host)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    const onClick = (event: MouseEvent): void => {
      if (event.composedPath().includes(view.host)) return;
      swallow(event);
      point(document.elementFromPoint(event.clientX, event.clientY));
      finish(true);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') {
        swallow(event);
        finish(false);
      } else if (event.key === 'Enter' && current !== null) {
        swallow(event);
        finish(true);
      }
    };
    const finish = (chosen: boolean): void => {
      document.removeEventListener('mousemove', onMove, true);
      document.removeEventListener('focusin', onFocus, true);
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('mousedown', swallow, true);
      document.removeEventListener('mouseup', swallow, true);
      document.removeEventListener('keydown', onKey, true);
      view.highlight(null);
      view.hint(false);
      resolve(chosen && current !== null ? { selector: stableSelector(current), element: current } : null);
    };
    document.addEventListener('mousemove', onMove, true);
    document.addEventListener('focusin', onFocus, true);
    document.addEventListener('click', onClick, true);
    document.addEventListener('mousedown', swallow, true);
    document.addEventListener('mouseup', swallow, true);
    document.addEventListener('keydown', onKey, true);
    view.hint(true);
  });
}
