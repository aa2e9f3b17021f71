/** A response's JSON, or undefined when it has none (an answer cut short, a proxy's HTML page). */
export async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
