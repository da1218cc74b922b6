import { readFileSync } from 'node:fs';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/load-config';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OUTPUT, apiDocument, renderApiTypes } = require('../../scripts/api-types.js') as {
  OUTPUT: string;
  apiDocument: (create: typeof createApp, load: typeof loadConfig) => Promise<unknown>;
  renderApiTypes: (document: unknown) => Promise<string>;
};

describe('web/src/api-types.ts', () => {
  it('is what `npm run api:types` generates from the current OpenAPI document', async () => {
    const fresh = await renderApiTypes(await apiDocument(createApp, loadConfig));
    // When this fails: run `npm run api:types` and commit web/src/api-types.ts.
    expect(readFileSync(OUTPUT, 'utf8')).toBe(fresh);
  });
});
