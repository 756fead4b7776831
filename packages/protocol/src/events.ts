import { Type, type Static, type TSchema } from 'typebox';

/**
 * The typed event catalog: every event type the service can send, its family, a one-line
 * meaning, and the shape of its `data` as a TypeBox schema. Everything else comes from here:
 * the TypeScript types the payload builders are checked against, the JSON Schema served at
 * `GET /schema/events/{type}.json` (docs/webhooks.md), webhook patterns and the samples of
 * `svc webhooks test`.
 */
export const eventFamilies = ['form', 'deploy', 'request'] as const;
export type EventFamily = (typeof eventFamilies)[number];

const closed = { additionalProperties: false } as const;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Instant = Type.String({ minLength: 1, description: 'An instant in UTC, ISO 8601 with milliseconds: 2026-11-21T10:00:00.000Z' });

export const FormRef = Type.Object(
  {
    id: Type.String({ description: 'The form endpoint id, as in POST /api/f/{id}' }),
    slug: Type.String(),
    name: Nullable(Type.String()),
  },
  closed,
);
export type FormRef = Static<typeof FormRef>;

export const SubmissionFile = Type.Object(
  {
    field: Type.String({ description: 'The multipart field the file came in' }),
    name: Type.String({ description: 'The file name the browser sent' }),
    size: Type.Integer({ minimum: 0 }),
    contentType: Type.String(),
    sha256: Type.String({ description: 'Lowercase hex SHA-256 of the contents' }),
  },
  closed,
);
export type SubmissionFile = Static<typeof SubmissionFile>;

export const SubmissionData = Type.Object(
  {
    form: FormRef,
    submission: Type.Object(
      {
        id: Type.String(),
        fields: Type.Record(Type.String(), Type.Unknown(), { description: 'The submitted fields as sent; names starting with _ are instructions and never here' }),
        files: Type.Array(SubmissionFile),
        createdAt: Instant,
      },
      closed,
    ),
  },
  closed,
);
export type SubmissionData = Static<typeof SubmissionData>;

/** A deleted submission: which one, never its fields (docs/privacy.md). */
export const SubmissionDeletedData = Type.Object(
  {
    form: FormRef,
    submission: Type.Object({ id: Type.String(), createdAt: Instant, deletedAt: Instant }, closed),
  },
  closed,
);
export type SubmissionDeletedData = Static<typeof SubmissionDeletedData>;

export const EnvironmentName = Type.Union([Type.Literal('production'), Type.Literal('staging'), Type.Literal('development')]);
export type EnvironmentName = Static<typeof EnvironmentName>;

/** A deploy as events carry it (docs/hosting.md). */
export const DeployInfo = Type.Object(
  {
    id: Type.String(),
    environment: EnvironmentName,
    state: Type.Union([Type.Literal('uploading'), Type.Literal('live'), Type.Literal('superseded'), Type.Literal('failed')], {
      description: 'live: an environment serves it; superseded: finished, not served, kept for rollback',
    }),
    liveIn: Type.Array(EnvironmentName, { description: 'The environments that serve it' }),
    branch: Nullable(Type.String()),
    commit: Nullable(Type.String()),
    files: Type.Integer({ minimum: 0 }),
    bytes: Type.Integer({ minimum: 0 }),
    url: Nullable(Type.String({ description: "Its environment's first domain; null when the environment has none" })),
    previewUrl: Type.String(),
    error: Nullable(Type.String()),
    createdAt: Instant,
    finishedAt: Nullable(Instant),
  },
  closed,
);
export type DeployInfo = Static<typeof DeployInfo>;

export const DeployPromotion = Type.Object(
  {
    environment: EnvironmentName,
    previous: Nullable(Type.String({ description: 'The deploy that served the environment before; null when none did' })),
  },
  closed,
);

const DeployOnly = Type.Object({ deploy: DeployInfo }, closed);
/** `deploy.promoted`: the environment it was made live on, and the deploy that served it before. */
const DeployPromotedData = Type.Object({ deploy: DeployInfo, promotion: DeployPromotion }, closed);

/** What every `deploy.*` builder writes: `promotion` only on `deploy.promoted`. */
export type DeployData = Static<typeof DeployOnly> & { promotion?: Static<typeof DeployPromotion> };

export const ElementBox = Type.Object(
  { x: Type.Integer(), y: Type.Integer(), width: Type.Integer({ minimum: 1 }), height: Type.Integer({ minimum: 1 }) },
  { ...closed, description: "The picked element's rectangle in CSS pixels of the viewport (the screenshot's frame)" },
);

/** A request of the Pinpoints inbox as events carry it: the screenshot by size, type and hash, never its bytes. */
export const RequestInfo = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('open'), Type.Literal('resolved')]),
    environment: EnvironmentName,
    url: Type.String({ description: 'The page the visitor was on' }),
    selector: Nullable(Type.String({ description: 'The element the visitor pointed at, as a CSS selector' })),
    comment: Type.String(),
    name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    viewport: Nullable(Type.String({ description: "WIDTHxHEIGHT of the visitor's viewport in CSS pixels" })),
    elementBox: Nullable(ElementBox),
    ip: Type.Optional(Type.String({ description: 'Present only where the project keeps visitor IPs (pinpoints.storeIp, default true)' })),
    screenshot: Nullable(Type.Object({ size: Type.Integer({ minimum: 0 }), contentType: Type.Literal('image/png'), sha256: Type.String() }, closed)),
    screenshotError: Nullable(Type.String({ description: 'Why there is no screenshot, as the widget reported it' })),
    createdAt: Instant,
  },
  closed,
);
export type RequestInfo = Static<typeof RequestInfo>;

export const RequestReply = Type.Object(
  {
    id: Type.String(),
    author: Type.String({ description: 'The name of whoever replied' }),
    message: Type.String(),
    createdAt: Instant,
  },
  closed,
);
export type RequestReply = Static<typeof RequestReply>;

const RequestOnly = Type.Object({ request: RequestInfo }, closed);
const RequestRepliedData = Type.Object({ request: RequestInfo, reply: RequestReply }, closed);

/** What every `request.*` builder writes: `reply` only on `request.replied`. */
export type RequestData = Static<typeof RequestOnly> & { reply?: RequestReply };

/**
 * What the stored payload of an event becomes once what it carried is erased (docs/privacy.md):
 * the same envelope, `data` holding only which record it was. A resend or replay of such an
 * event sends this.
 */
export const ErasedSubmissionData = SubmissionDeletedData;
export const ErasedRequestData = Type.Object(
  { request: Type.Object({ id: Type.String(), createdAt: Instant, deletedAt: Instant }, closed) },
  { ...closed, description: 'The request was deleted: only which one it was' },
);
export type ErasedRequestData = Static<typeof ErasedRequestData>;

interface CatalogEntry {
  readonly family: EventFamily;
  readonly description: string;
  readonly data: TSchema;
  /** The shape of `data` once the record it carried was erased; absent where nothing is erased. */
  readonly erased?: TSchema;
}

export const eventCatalog = {
  'form.submission.created': {
    family: 'form',
    description: 'A submission that is not spam was stored, or one was moved from Spam to the inbox.',
    data: SubmissionData,
    erased: ErasedSubmissionData,
  },
  'form.submission.spam': { family: 'form', description: 'A submission was routed to Spam, or moved there by hand.', data: SubmissionData, erased: ErasedSubmissionData },
  'form.submission.deleted': { family: 'form', description: 'A submission was deleted; the event carries its id, not its fields.', data: SubmissionDeletedData },
  'deploy.started': { family: 'deploy', description: 'A deploy started: its files are being uploaded.', data: DeployOnly },
  'deploy.succeeded': { family: 'deploy', description: 'A deploy finished and is live on its environment.', data: DeployOnly },
  'deploy.failed': { family: 'deploy', description: 'A deploy failed (its upload stopped); the one live before stays live.', data: DeployOnly },
  'deploy.promoted': { family: 'deploy', description: 'A deploy was made live on another environment, or rolled back to.', data: DeployPromotedData },
  'request.created': { family: 'request', description: 'A visitor sent a request through the Pinpoints widget.', data: RequestOnly, erased: ErasedRequestData },
  'request.replied': { family: 'request', description: 'Somebody replied to a request.', data: RequestRepliedData, erased: ErasedRequestData },
  'request.resolved': { family: 'request', description: 'A request was marked resolved.', data: RequestOnly, erased: ErasedRequestData },
  'request.reopened': { family: 'request', description: 'A resolved request was opened again.', data: RequestOnly, erased: ErasedRequestData },
} as const satisfies Record<string, CatalogEntry>;

type Catalog = typeof eventCatalog;

/** Event type → the type of its `data`, as the catalog's schema says. */
export type EventDataMap = { [K in keyof Catalog]: Static<Catalog[K]['data']> };

export type EventType = keyof EventDataMap;

export const eventTypes = Object.keys(eventCatalog) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(eventCatalog, value);
}

/** The JSON body of every webhook delivery (docs/webhooks.md). */
export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  createdAt: string;
  workspace: string;
  project: string;
  /** Only on a test (`svc webhooks test`, **Send test event**): the data is a made-up sample. */
  test?: true;
  data: EventDataMap[T];
}

/**
 * The JSON Schema (draft-07) of one event type's delivery body, as `GET
 * /schema/events/{type}.json` serves it: the envelope with the type fixed and `data` as the
 * catalog says, or, for types whose payload is replaced when its record is erased, that
 * replacement.
 */
export function eventJsonSchema(type: EventType, id: string): Record<string, unknown> {
  const entry: CatalogEntry = eventCatalog[type];
  const data = entry.erased === undefined ? entry.data : { anyOf: [entry.data, entry.erased] };
  const envelope = Type.Object(
    {
      id: Type.String({ description: 'The event id (evt_…): the same on every attempt; de-duplicate on it' }),
      type: Type.Literal(type),
      createdAt: Instant,
      workspace: Type.String(),
      project: Type.String(),
      test: Type.Optional(Type.Literal(true, { description: 'Present only on a test event: the data is a made-up sample' })),
      data,
    },
    closed,
  );
  // A plain JSON copy: TypeBox keeps its own markers under symbol keys, which JSON drops.
  return { $schema: 'http://json-schema.org/draft-07/schema#', $id: id, title: type, description: entry.description, ...(JSON.parse(JSON.stringify(envelope)) as object) };
}

/**
 * A webhook subscribes with patterns: `*`, a family wildcard (`form.*`, `deploy.*`,
 * `request.*`) or an exact event type from the catalog.
 */
export function isValidEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return (eventFamilies as readonly string[]).includes(pattern.slice(0, -2));
  return isEventType(pattern);
}

export function eventMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function eventMatchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => eventMatches(pattern, type));
}
