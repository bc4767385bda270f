/** What `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
