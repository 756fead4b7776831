import type { FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { ElementBox } from '@svc/protocol/api';
import { unstorableFieldErrors } from '../forms/field-checks.js';
import type { FormLimits } from '../forms/limits.js';
import { readMultipart, type StagedUpload } from '../forms/multipart-body.js';
import type { FileStore } from '../store/files/file-store.js';
import { isPinpointsEnvironment, type PinpointsEnvironment } from './widget-settings.js';

/** Limits of `POST /api/p/{key}/requests` (docs/pinpoints.md). */
export const requestLimits = {
  commentChars: 5_000,
  urlChars: 2_048,
  selectorChars: 1_000,
  nameChars: 200,
  emailChars: 254,
  screenshotErrorChars: 200,
  screenshotBytes: 5 * 1024 * 1024,
} as const;

/** What the multipart reader may take: one file, a few text parts, and little besides the screenshot. */
const multipartLimits: FormLimits = {
  jsonBodyBytes: 64 * 1024,
  files: 1,
  fileBytes: requestLimits.screenshotBytes,
  multipartBytes: requestLimits.screenshotBytes + 128 * 1024,
  fields: 20,
  jsonDepth: 1,
  // A screenshot is committed on its own, with the request's row after it.
  heldFileBytes: 0,
};

/** A visitor's request as posted, checked; the screenshot staged, not yet stored. */
export interface VisitorRequest {
  readonly comment: string;
  readonly url: string;
  readonly selector: string | null;
  readonly environment: PinpointsEnvironment | null;
  readonly name: string | null;
  readonly email: string | null;
  readonly viewport: string | null;
  /** The picked element's rectangle in CSS pixels of the viewport. */
  readonly elementBox: ElementBox | null;
  readonly screenshotError: string | null;
  readonly screenshot: StagedUpload | null;
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Reads and checks the multipart body. Over a limit: 413 before anything is kept; a field
 * out of its rules: 422 with every problem by field name. The caller commits or discards
 * the staged screenshot.
 */
export async function readVisitorRequest(request: FastifyRequest, files: FileStore): Promise<VisitorRequest> {
  if (!request.isMultipart()) throw new ServiceError('unsupported_media_type', 'send multipart/form-data');
  const body = await readMultipart(request, files, multipartLimits);
  const errors: Record<string, string> = unstorableFieldErrors(body.fields);
  const text = (name: string, max: number, required = false): string | null => {
    const value = body.fields[name];
    if (errors[name] !== undefined) return null;
    if (value === undefined) {
      if (required) errors[name] = 'is required';
      return null;
    }
    if (typeof value !== 'string') {
      errors[name] = 'must be sent once';
      return null;
    }
    const trimmed = value.trim();
    if (trimmed === '') {
      if (required) errors[name] = 'must not be empty';
      return null;
    }
    if ([...trimmed].length > max) {
      errors[name] = `must be at most ${max} characters`;
      return null;
    }
    return trimmed;
  };

  const comment = text('comment', requestLimits.commentChars, true);
  const url = text('url', requestLimits.urlChars, true);
  if (url !== null && !isPageUrl(url)) errors['url'] = 'must be an http or https URL';
  const environment = text('environment', 20);
  if (environment !== null && !isPinpointsEnvironment(environment)) errors['environment'] = 'must be production, staging or development';
  const email = text('email', requestLimits.emailChars);
  if (email !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors['email'] = 'must be an email address';
  const viewport = text('viewport', 11);
  if (viewport !== null && !/^\d{1,5}x\d{1,5}$/.test(viewport)) errors['viewport'] = 'must be WIDTHxHEIGHT in pixels';
  const elementBox = parseElementBox(text('elementBox', 30));
  if (elementBox === 'invalid') errors['elementBox'] = 'must be X,Y,WIDTH,HEIGHT in whole pixels, width and height at least 1';
  else if (elementBox !== null && viewport === null && errors['viewport'] === undefined) errors['elementBox'] = 'needs the viewport it was measured in';
  const result = {
    comment: comment ?? '',
    url: url ?? '',
    selector: text('selector', requestLimits.selectorChars),
    environment: environment as PinpointsEnvironment | null,
    name: text('name', requestLimits.nameChars),
    email,
    viewport,
    elementBox: elementBox === 'invalid' ? null : elementBox,
    screenshotError: text('screenshotError', requestLimits.screenshotErrorChars),
  };

  const [upload, ...others] = body.uploads;
  if (upload !== undefined && upload.field !== 'screenshot') errors[upload.field] = 'is not a file field; only screenshot is';
  else if (upload !== undefined && !pngSignature.every((byte, index) => upload.head[index] === byte)) errors['screenshot'] = 'must be a PNG image';
  if (Object.keys(errors).length > 0 || others.length > 0) {
    await Promise.all(body.uploads.map((staged) => staged.staged.discard()));
    throw new ServiceError('validation_failed', Object.entries(errors).map(([name, problem]) => `${name} ${problem}`).join('; '), { errors });
  }
  return { ...result, screenshot: upload ?? null, screenshotError: upload === undefined ? result.screenshotError : null };
}

/** `X,Y,WIDTH,HEIGHT` (the widget rounds to whole pixels); null when not sent. */
function parseElementBox(value: string | null): ElementBox | 'invalid' | null {
  if (value === null) return null;
  const match = /^(-?\d{1,6}),(-?\d{1,6}),(\d{1,6}),(\d{1,6})$/.exec(value);
  if (!match) return 'invalid';
  const [x, y, width, height] = match.slice(1).map(Number) as [number, number, number, number];
  return width >= 1 && height >= 1 ? { x, y, width, height } : 'invalid';
}

function isPageUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
