/**
 * A pure function of a string, remembered: a run asks the same few questions thousands of times
 * (a site's Content-Type values, its host names). At most `kept` answers are held; input that is
 * new each time (a hostile server's) empties the memory and starts again, so it stays bounded.
 */
export function memoize<T>(compute: (input: string) => T, kept: number): (input: string) => T {
  const answers = new Map<string, T>();
  return (input) => {
    if (answers.has(input)) return answers.get(input) as T;
    const answer = compute(input);
    if (answers.size >= kept) answers.clear();
    answers.set(input, answer);
    return answer;
  };
}
