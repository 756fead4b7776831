// The screenshot code, loaded by the widget on first use only (docs/pinpoints.md): the
// DOM-to-image library is most of the widget's weight. It is modern-screenshot, which
// renders the page through an SVG foreignObject, so the browser itself paints every CSS
// colour (oklch(), color-mix()…), where html2canvas re-implements CSS and fails on them.
import { domToCanvas } from 'modern-screenshot';
import { redactedElements, redactionBoxes } from './redaction.js';

export interface CaptureOptions {
  /** The project's `pinpoints.redact` selectors. */
  readonly redact: readonly string[];
  /** The widget's own element, left out of the picture. */
  readonly exclude: Element;
  /** Largest PNG to return, in bytes (the server's limit). */
  readonly maxBytes: number;
}

/** The colour redacted areas are painted with: one flat colour, nothing of what was under it. */
export const redactionColour = '#1f2937';

/**
 * A PNG of what the visitor sees (the viewport), with every redacted element painted over
 * on the canvas before the image exists as bytes. Throws when it cannot: the caller then
 * sends the request without an image.
 */
export async function captureViewport(options: CaptureOptions): Promise<Blob> {
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  const root = document.documentElement;
  const origin = root.getBoundingClientRect();
  // Boxes are measured before rendering: what the visitor saw is what is covered.
  const { elements } = redactedElements(document, options.redact);
  const boxes = redactionBoxes(elements, viewport);

  const page = await domToCanvas(root, {
    width: Math.max(root.scrollWidth, viewport.width),
    height: Math.max(root.scrollHeight, viewport.height),
    scale: 1,
    backgroundColor: getComputedStyle(document.body).backgroundColor || '#ffffff',
    filter: (node) => node !== options.exclude,
    timeout: 10_000,
    features: { restoreScrollPosition: true },
  });

  for (let scale = 1; scale >= 0.25; scale /= 2) {
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(viewport.width * scale);
    canvas.height = Math.round(viewport.height * scale);
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('this browser cannot draw on a canvas');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // The viewport's part of the whole page: the page's origin sits at (origin.left, origin.top).
    context.drawImage(page, -origin.left, -origin.top, viewport.width, viewport.height, 0, 0, canvas.width, canvas.height);
    context.fillStyle = redactionColour;
    for (const box of boxes) context.fillRect(Math.floor(box.x * scale), Math.floor(box.y * scale), Math.ceil(box.width * scale), Math.ceil(box.height * scale));
    const png = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (png === null) throw new Error('the browser could not encode the screenshot');
    if (png.size <= options.maxBytes) return png;
  }
  throw new Error('the screenshot is too large to send');
}
