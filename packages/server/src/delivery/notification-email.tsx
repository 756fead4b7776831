import type { EventEnvelope } from '@svc/protocol';
import { render } from 'preact-render-to-string';
import { isValidEmail } from '../lib/email-address.js';
import { formatBytes } from '../lib/format-bytes.js';
import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import type { MailMessage } from './mail-sender.js';

/**
 * The notification email of a new submission (docs/form-endpoint.md, "Notifications"), to
 * one recipient: the form, every field, the file names (never the files), and a link to the
 * submission in the settings area. Every submitted value is escaped in the HTML part (Preact escapes text)
 * and stripped of control characters in both; `Reply-To` is the submission's `email` field
 * when it is one valid address.
 */
export function notificationEmail(job: Pick<DeliveryJob, 'deliveryId' | 'eventId' | 'payload' | 'url'>, baseUrl: string, from: string): MailMessage {
  const event = JSON.parse(job.payload) as EventEnvelope<'form.submission.created'>;
  const { form, submission } = event.data;
  const formName = oneLine(form.name ?? form.slug);
  const link = `${baseUrl}/settings/${encodeURIComponent(event.workspace)}/${encodeURIComponent(event.project)}/forms/${encodeURIComponent(form.slug)}#${encodeURIComponent(submission.id)}`;
  const fields = Object.entries(submission.fields).map(([name, value]) => [clean(name), clean(valueText(value))] as const);
  const files = submission.files.map((file) => `${clean(file.name)} (${formatBytes(file.size)})`);
  const email = submission.fields['email'];

  const text = [
    `A new submission to the form ${formName}.`,
    '',
    ...(fields.length === 0 ? ['(no fields)'] : fields.map(([name, value]) => `${name}: ${value.replace(/\n/g, '\n  ')}`)),
    ...(files.length === 0 ? [] : ['', `Files (not attached): ${files.join(', ')}`]),
    '',
    `Open it: ${link}`,
    `Submission ${submission.id}, received ${submission.createdAt}.`,
  ].join('\n');

  const html = `<!doctype html>${render(
    <html lang="en">
      <body style="font-family:system-ui,sans-serif;color:#1f2933">
        <p>
          A new submission to the form <strong>{formName}</strong>.
        </p>
        <table cellpadding="6" style="border-collapse:collapse">
          <tbody>
            {fields.map(([name, value]) => (
              <tr key={name}>
                <th align="left" style="border-bottom:1px solid #e4e7eb;vertical-align:top">
                  {name}
                </th>
                <td style="border-bottom:1px solid #e4e7eb;white-space:pre-wrap">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {files.length === 0 ? null : <p>Files (not attached): {files.join(', ')}</p>}
        <p>
          <a href={link}>Open the submission</a>
        </p>
        <p style="color:#7b8794;font-size:12px">
          Submission {submission.id}, received {submission.createdAt}.
        </p>
      </body>
    </html>,
  )}`;

  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'svc.invalid';
  return {
    // One recipient a message (docs/form-endpoint.md, "Notifications"): each address has a target of its own.
    to: job.url.slice('mailto:'.length).split(',').filter((address) => address !== ''),
    replyTo: typeof email === 'string' && isValidEmail(email) ? email : null,
    // What a client reads in their inbox: the form's name, nothing of the service's own names.
    subject: `New submission: ${formName}`,
    text,
    html,
    messageId: `<${job.deliveryId}@${domain}>`,
    headers: { 'auto-submitted': 'auto-generated', 'x-service-event-id': job.eventId, 'x-service-delivery': job.deliveryId },
  };
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return JSON.stringify(value);
}

/** Without control characters other than line breaks and tabs. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

function oneLine(text: string): string {
  return clean(text).replace(/\s+/g, ' ').trim();
}
