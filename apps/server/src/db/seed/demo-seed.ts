export async function seedDemoCatalogueIfEmpty(_: unknown) {}
