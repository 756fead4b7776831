import type { RequestInfo } from '@svc/protocol/api';

/** The element's box as fractions of the viewport, cut to it; null when none or wholly outside it. */
export function elementPlacement(request: Pick<RequestInfo, 'elementBox' | 'viewport'>): { left: number; top: number; width: number; height: number } | null {
  const box = request.elementBox;
  const viewport = /^(\d+)x(\d+)$/.exec(request.viewport ?? '');
  if (box === null || viewport === null) return null;
  const [width, height] = [Number(viewport[1]), Number(viewport[2])];
  if (width === 0 || height === 0) return null;
  const [left, right] = [Math.max(0, box.x), Math.min(width, box.x + box.width)];
  const [top, bottom] = [Math.max(0, box.y), Math.min(height, box.y + box.height)];
  return right > left && bottom > top ? { left: left / width, top: top / height, width: (right - left) / width, height: (bottom - top) / height } : null;
}
