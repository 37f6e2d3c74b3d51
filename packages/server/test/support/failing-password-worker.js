// A password thread that fails (features/accounts/password.test.ts): it stops, as a thread killed
// by a fault would, for the password 'stop', and throws for any other.
export default function failingPasswordJob(job) {
  if (job.password === 'stop') process.exit(70);
  throw new Error('the thread ran out of memory');
}
