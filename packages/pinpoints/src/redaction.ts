/**
 * What is always painted over in a screenshot, whatever the project configured: password
 * fields, payment-card fields (`autocomplete="cc-…"`) and anything marked
 * `data-pinpoints-redact` (docs/pinpoints.md, "Redaction").
 */
export const alwaysRedacted = ['input[type="password" i]', '[autocomplete*="cc-" i]', '[data-pinpoints-redact]'] as const;

/** A rectangle in CSS pixels of the viewport. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Every element to paint over: the project's selectors and the ones above. A selector the
 * browser cannot parse is skipped, never fatal, and reported so the capture can say so.
 */
export function redactedElements(root: ParentNode, selectors: readonly string[]): { elements: Element[]; invalid: string[] } {
  const found = new Set<Element>();
  const invalid: string[] = [];
  for (const selector of [...selectors, ...alwaysRedacted]) {
    try {
      for (const element of root.querySelectorAll(selector)) found.add(element);
    } catch {
      invalid.push(selector);
    }
  }
  return { elements: [...found], invalid };
}

/**
 * The boxes to paint, in viewport pixels, each grown by `margin` so anti-aliased edges and
 * focus rings are covered too, and clipped to the viewport; empty boxes are dropped.
 */
export function redactionBoxes(elements: readonly Element[], viewport: { width: number; height: number }, margin = 2): Box[] {
  const boxes: Box[] = [];
  for (const element of elements) {
    for (const rect of element.getClientRects()) {
      const left = Math.max(0, Math.floor(rect.left - margin));
      const top = Math.max(0, Math.floor(rect.top - margin));
      const right = Math.min(viewport.width, Math.ceil(rect.right + margin));
      const bottom = Math.min(viewport.height, Math.ceil(rect.bottom + margin));
      if (right > left && bottom > top && rect.width > 0 && rect.height > 0) boxes.push({ x: left, y: top, width: right - left, height: bottom - top });
    }
  }
  return boxes;
}
