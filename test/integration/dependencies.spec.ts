import {} from '../helpers/test-env';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findProblems } = require('../../scripts/check-deps.js') as { findProblems: () => string[] };

describe('package.json', () => {
  it('declares every package the code imports and nothing else, run-time imports of src/ in dependencies', () => {
    expect(findProblems()).toEqual([]);
  });
});
