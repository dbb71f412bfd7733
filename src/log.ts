// The one way the server and its jobs write a line: what went well to stdout, what failed to stderr, so that a
// service manager or a log pipeline can tell them apart (a review found the server's failures, a publish refused by
// the store or an email Postmark would not take, on stdout among the rest).

export type LogLevel = 'info' | 'error';
export type Log = (line: string, level?: LogLevel) => void;

export const consoleLog: Log = (line, level = 'info') => {
  if (level === 'error') console.error(line);
  else console.log(line);
};
