import { describe, expect, it } from 'vitest';
import { pinnedAddresses } from './pinned-addresses.js';

describe('pinnedAddresses', () => {
  it('pins the addresses DNS gave', async () => {
    const pins = await pinnedAddresses(new URL('https://git.example.com/acme/site.git'), false, () => Promise.resolve([{ address: '93.184.215.14' }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }]));
    expect(pins).toEqual(['git.example.com:443:93.184.215.14,[2606:2800:21f:cb07:6820:80da:af6b:8b2c]']);
  });

  it('refuses a host that resolves to a private address', async () => {
    await expect(pinnedAddresses(new URL('https://internal.example/acme.git'), false, () => Promise.resolve([{ address: '10.0.0.5' }]))).rejects.toMatchObject({ code: 'fetch_failed', message: expect.stringContaining('private') });
  });

  it('refuses a loopback literal', async () => {
    await expect(pinnedAddresses(new URL('https://127.0.0.1:8443/acme.git'), false)).rejects.toMatchObject({ code: 'fetch_failed' });
  });

  it('lets private addresses through when the operator allows them', async () => {
    expect(await pinnedAddresses(new URL('https://gitea.lan:3000/acme.git'), true, () => Promise.resolve([{ address: '192.168.1.9' }]))).toEqual(['gitea.lan:3000:192.168.1.9']);
  });
});
