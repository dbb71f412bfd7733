// npm run invite -- --match MATCH_ID: invites every member with an email of both teams to RSVP.
// Each gets an email with a personal link (sent by the server's mail worker, which mints the link); members
// already invited are left alone (run it again safely), unless their address changed since: they are invited
// afresh at the new one. Named: the members it could not reach (no address, or one Postmark refuses).
import { ConflictError, NotFoundError } from '../src/errors.js';
import { inviteMatch } from '../src/rsvp/service.js';
import { plural } from '../src/text/plural.js';
import { CliError, parseOptions, runCli, withDatabase } from './cli.js';

await runCli(async () => {
  const matchId = parseOptions({ match: { type: 'string' } }, 'npm run invite -- --match MATCH_ID').match;
  if (!matchId) throw new CliError('usage: npm run invite -- --match MATCH_ID');
  const id = matchId;
  await withDatabase(({ store }) => {
    try {
      const r = inviteMatch(store, id, new Date());
      const refused = r.refusedMembers.length;
      console.log(
        `match ${r.matchId}: ${r.invited} invited (emails queued), ${r.alreadyInvited} already invited, ` +
          `${r.withoutEmail} without an email address${refused > 0 ? `, ${refused} whose address Postmark refuses` : ''}`,
      );
      // Named, not only counted (an RSVP review): the organizer has to reach each of them another way. So are those
      // whose invitation Postmark refused for good (the mail review: they were counted as already invited).
      // Each group by team then name.
      const unreachable = [
        ...r.withoutEmailMembers.map((m) => ({ ...m, why: 'no email address' })),
        ...r.refusedMembers.map((m) => ({ ...m, why: 'Postmark refused their address (inactive or invalid there): the invitation did not reach them' })),
      ];
      if (unreachable.length > 0) {
        console.log('could not be reached (phone them, or add or correct their address in the import file and invite again):');
        for (const m of unreachable) console.log(`  ${m.team_name}: ${m.member_name} (${m.member_id}): ${m.why}`);
      }
      // Said only when it happened: the organizer corrected addresses since the last run.
      if (r.readdressed > 0) {
        const who = r.readdressed < r.invited ? `${r.readdressed} of the ${r.invited} invited were` : r.invited === 1 ? 'the member invited was' : `all ${r.invited} invited were`;
        console.log(`${who} invited again at a new address (the links sent to the old one no longer work; their answers start again)`);
      }
      if (r.withdrawn > 0) {
        console.log(`${plural(r.withdrawn, 'invitation')} withdrawn: the member's address was removed (the links sent no longer work)`);
      }
      if (r.listedTwice > 0) {
        console.log(`${plural(r.listedTwice, 'member')} listed again under the same name and address (in both teams, or twice in one): invited once`);
      }
      if (r.invited + r.alreadyInvited + r.withoutEmail + r.listedTwice === 0) {
        console.log('no team is known for this match yet: invite again once its teams are decided');
      }
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof ConflictError) throw new CliError(error.message);
      throw error;
    }
  });
});
