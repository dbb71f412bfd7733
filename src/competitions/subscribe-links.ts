// The three ways a person adds a calendar feed: webcal:// (opens the system calendar app, which subscribes),
// https:// (to paste into any app's "subscribe by URL"), and Google Calendar's add-by-URL page (Google does not
// handle webcal:// links itself). Wherever a calendar is offered to a person (the docs page, emails), all three.
export interface SubscribeLinks {
  https: string;
  webcal: string;
  google: string;
}

export function subscribeLinks(feedUrl: string): SubscribeLinks {
  const url = new URL(feedUrl);
  const webcal = `webcal://${url.host}${url.pathname}${url.search}`;
  return {
    https: url.href,
    webcal,
    google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
  };
}
