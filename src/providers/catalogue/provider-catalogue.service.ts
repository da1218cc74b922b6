import { Injectable } from '@nestjs/common';
import { ProviderAdapters } from '../provider-registry';
import { type ProviderDescriptorView, providerDescriptorView } from './provider-catalogue.view';

/** The providers this gateway runs, each as it describes itself: nothing here knows a PSP. */
@Injectable()
export class ProviderCatalogueService {
  constructor(private readonly adapters: ProviderAdapters) {}

  list(): ProviderDescriptorView[] {
    const builtIn = new Set(this.adapters.builtInNames());
    return this.adapters.descriptors().map((descriptor) => providerDescriptorView(descriptor, builtIn.has(descriptor.name)));
  }
}
