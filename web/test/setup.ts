// Every dashboard test starts at the site root: the pages read their filters and cursors from
// the URL (web/src/router.tsx), so one test's navigation must not leak into the next.
afterEach(() => {
  history.replaceState(null, '', '/');
});
