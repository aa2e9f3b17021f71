/** A promise the test resolves when it chooses (Node 20 has no Promise.withResolvers). */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
