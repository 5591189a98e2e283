// PostgreSQL adapter for the Prisma 6.19 js schema engine, mending its defects: catalog columns of
// type name/"char" cannot be decoded (prisma/orm#27403) so they are reported as text; migration
// scripts are split on every ";" so they are sent whole instead; and the shadow database gets a
// database of its own, dropped when the engine lets go of it.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

const TEXT_INSTEAD: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 };
type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

function mend(adapter: Adapter): Adapter {
  adapter.executeScript = async (script: string) => {
    try {
      await adapter.underlyingDriver().query(script);
    } catch (err) {
      (adapter as unknown as { onError(e: unknown): never }).onError(err);
    }
  };
  const queryable = Object.getPrototypeOf(Object.getPrototypeOf(adapter));
  if (!queryable.__textCatalogTypes) {
    const performIO = queryable.performIO;
    queryable.performIO = async function (this: unknown, query: unknown) {
      const result = await performIO.call(this, query);
      for (const r of Array.isArray(result) ? result : [result])
        for (const field of r?.fields ?? []) if (field.dataTypeID in TEXT_INSTEAD) field.dataTypeID = TEXT_INSTEAD[field.dataTypeID];
      return result;
    };
    queryable.__textCatalogTypes = true;
  }
  return adapter;
}

export function pgMigrationAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  const config: pg.PoolConfig = { connectionString: url, allowExitOnIdle: true };
  const base = new PrismaPg(config);
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => mend(await base.connect()),
    async connectToShadowDb() {
      const admin = new pg.Client(config);
      await admin.connect();
      const name = `shadow_${process.pid}_${Date.now()}`;
      await admin.query(`CREATE DATABASE "${name}"`);
      const shadowUrl = new URL(url);
      shadowUrl.pathname = `/${name}`;
      const adapter = mend(await new PrismaPg({ ...config, connectionString: shadowUrl.toString() }).connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      };
      return adapter;
    },
  };
}
