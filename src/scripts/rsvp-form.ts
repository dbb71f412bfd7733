// Browser side of the RSVP page: posts the choice to endpoint 7 as JSON and shows the new counts,
// without reloading. Without JavaScript the same form posts to the page itself.
//
// One answer is sent at a time, and the page shows only the last one the server took. An accessibility review, on a
// slow phone connection: "Yes", then "No" 0.3 s later, and the reply to "Yes" came last; the page said "Your answer is
// saved." with Yes pressed while No was stored, and nothing showed an answer on its way, so people tapped again.
import { PAGE_FLAGS, RSVP_PAGE_WORDS } from '../rsvp/page-words.js';

export function enhanceRsvpForm(): void {
  const form = document.querySelector<HTMLFormElement>('#rsvp');
  if (!form || form.dataset.closed === 'true') return;
  const notice = document.querySelector<HTMLElement>('#notice');
  const { saved, saving } = RSVP_PAGE_WORDS[document.documentElement.lang === 'ar' ? 'ar' : 'en'];
  const buttons = [...form.querySelectorAll<HTMLButtonElement>('button[name="status"]')];
  // When the API cannot take the answer (no network; answers closed, the link no longer valid, too many requests),
  // the page answers instead, in its own language, as it does without JavaScript: the form is posted to it with the
  // choice in a field, since form.submit() sends no submitter. The API's English detail was shown before, and a
  // failed fetch posted the form without the choice, which the page then could not save.
  // One field, made once: a second failure (a tap while the page was on its way, or after Back restored it) appended
  // a second, and the form named status twice, which the server refuses (src/http/body.ts).
  const answerOnThePage = (status: string) => {
    let field = form.querySelector<HTMLInputElement>('input[type="hidden"][name="status"]');
    if (!field) {
      field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'status';
      form.append(field);
    }
    field.value = status;
    form.submit();
  };
  const pressed = (status: string | undefined) => {
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.value === status));
  };

  /** The answer waiting for the one on its way (the last tapped), or null. */
  let next: string | null = null;
  let sending = false;

  const send = async (status: string): Promise<void> => {
    sending = true;
    form.setAttribute('aria-busy', 'true');
    // What the page said of an earlier answer (rsvp.astro's outcome, and the start of its title) no longer holds: this
    // one is said below.
    document.querySelector('#outcome')?.remove();
    if (form.dataset.title) document.title = form.dataset.title;
    if (notice) notice.textContent = saving;
    const token = (form.elements.namedItem('token') as HTMLInputElement).value;
    const response = await fetch('/api/v0/rsvp/respond', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, status }),
    }).catch(() => null);
    // A later tap: it is the answer, sent now; what this reply says is already out of date.
    if (next !== null && next !== status) {
      const later = next;
      next = null;
      return send(later);
    }
    next = null;
    sending = false;
    form.removeAttribute('aria-busy');
    if (!response || !response.ok) return answerOnThePage(status);
    type Counts = Record<string, number>;
    const body = (await response.json().catch(() => ({}))) as { status?: string; summary?: Counts; teams?: Array<{ team_id: string; summary: Counts }> };
    pressed(body.status);
    const show = (counts: Counts | undefined, attribute: string) => {
      for (const [key, value] of Object.entries(counts ?? {})) {
        const cell = document.querySelector<HTMLElement>(`[${attribute}="${key}"]`);
        if (cell) cell.textContent = String(value);
      }
    };
    show(body.summary, 'data-count');
    const team = document.querySelector<HTMLElement>('#team-counts')?.dataset.team;
    show(body.teams?.find((t) => t.team_id === team)?.summary, 'data-team-count');
    if (await movedSinceDrawn()) return showMoved();
    if (notice) notice.textContent = saved;
  };

  // A page left open while the match moved: an RSVP review's player said yes under the old kickoff and venue and read
  // "saved" beside them. The page as it is now says what it shows of the match (data-shown); when that is not what
  // this page showed, it is drawn again, saying the answer is saved and the match moved (as without JavaScript, where
  // the form posts what it showed). One more read of the page per answer.
  const movedSinceDrawn = async (): Promise<boolean> => {
    const now = await fetch(location.href, { cache: 'no-store' }).then((r) => (r.ok ? r.text() : null)).catch(() => null);
    if (now === null) return false;
    const shown = new DOMParser().parseFromString(now, 'text/html').querySelector<HTMLFormElement>('#rsvp')?.dataset.shown;
    return shown !== undefined && shown !== form.dataset.shown;
  };
  const showMoved = () => {
    const url = new URL(location.href);
    url.searchParams.set(PAGE_FLAGS.saved, '1');
    url.searchParams.set(PAGE_FLAGS.moved, '1');
    location.replace(url);
  };

  form.addEventListener('submit', (event) => {
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!submitter) return;
    event.preventDefault();
    // Shown at once as the choice being saved; the counts and "saved" follow the server's reply.
    pressed(submitter.value);
    if (sending) next = submitter.value;
    else void send(submitter.value);
  });
}
