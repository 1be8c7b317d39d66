package dev.solweb.provider.translate;

/**
 * What tests of other packages may not do through translate's verbs: put a conversation in the
 * registry as it is (last used long ago, say), without a turn that made it.
 */
public final class StoredConversations {
  private StoredConversations() {}

  public static void store(Conversations conversations, Conversation conversation) {
    conversations.registry().put(conversation);
  }
}
