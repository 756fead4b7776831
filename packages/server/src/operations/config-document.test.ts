import { describe, expect, it } from 'vitest';
import type { FormRow, ProjectRow } from '../store/schema.js';
import { configDocument } from './config-document.js';

const project: ProjectRow = {
  id: 'prj_1',
  workspace_id: 'ws_1',
  name: 'site',
  framework: 'next',
  environments: JSON.stringify({ development: { branch: 'dev' }, production: { branch: 'main' } }),
  pinpoints: JSON.stringify({ storeIp: false, redact: ['.x'], production: true }),
  widget_key: null,
  request_retention_seconds: null,
  auto: JSON.stringify({ timeout: 900 }),
  created_at: 0,
  updated_at: 0,
};

const form = (slug: string, name: string | null, position: number): FormRow => ({
  id: `frm_${slug}`,
  project_id: 'prj_1',
  slug,
  name,
  endpoint_id: `ep${slug}`,
  rate_limit_max: null,
  rate_limit_window_seconds: null,
  success_url: null,
  error_url: null,
  notify_emails: null,
  retention_seconds: null,
  position,
  created_at: 0,
  updated_at: 0,
});

describe('a project as service.json', () => {
  it("writes every key in the schema's order", () => {
    const document = configDocument({
      schemaUrl: 'https://svc.example.com/schema/service.json',
      workspaceSlug: 'acme',
      project,
      forms: [form('contact', 'Contact', 0), form('newsletter', null, 1)],
      domains: [
        { hostname: 'dev.example.com', environment: 'development', position: 0 },
        { hostname: 'example.com', environment: 'production', position: 1 },
        { hostname: 'www.example.com', environment: 'production', position: 0 },
      ],
    });
    expect(JSON.stringify(document)).toBe(
      JSON.stringify({
        $schema: 'https://svc.example.com/schema/service.json',
        workspace: 'acme',
        project: 'site',
        framework: 'next',
        environments: { production: { branch: 'main' }, development: { branch: 'dev' } },
        forms: [{ slug: 'contact', name: 'Contact' }, { slug: 'newsletter' }],
        domains: { production: ['www.example.com', 'example.com'], development: ['dev.example.com'] },
        pinpoints: { production: true, redact: ['.x'], storeIp: false },
        auto: { timeout: 900 },
      }),
    );
  });

  it('leaves out sections that hold nothing', () => {
    const document = configDocument({
      schemaUrl: 'http://127.0.0.1:8787/schema/service.json',
      workspaceSlug: 'acme',
      project: { ...project, pinpoints: '{}', auto: '{}' },
      forms: [],
      domains: [],
    });
    expect(Object.keys(document)).toEqual(['$schema', 'workspace', 'project', 'framework', 'environments']);
  });
});
