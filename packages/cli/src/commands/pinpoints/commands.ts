import { defineGroup, handlersIn } from '../../command.js';
import { projectCommand } from '../../common-options.js';

export const pinpointsSnippet = projectCommand('snippet', handlersIn(() => import('./run.js'))('snippet'), {
  summary: 'print the script tag that puts the Pinpoints widget on a page',
  description: `Print the tag to paste into the project's pages, with the project's widget key, and say in which environments the widget shows (service.json's pinpoints: production off, staging and development on by default). With --json: the key, the script URL, the tag and the settings.

The page's environment is the tag's data-environment when set, else the environment whose domains list the page's hostname, else development on localhost; elsewhere the widget stays off (docs/pinpoints.md).`,
  examples: ['svc pinpoints snippet', 'svc pinpoints snippet --json | jq -r .snippet'],
});

export const pinpointsCommand = defineGroup({
  name: 'pinpoints',
  summary: 'the Pinpoints feedback widget: the tag to paste',
  commands: [pinpointsSnippet],
});
