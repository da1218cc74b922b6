import { apiContract } from './api-contract';

// Runs after every e2e spec file (jest.config.js): the file fails if any exchange broke the document.
afterAll(() => {
  expect(apiContract.violations).toEqual([]);
});
