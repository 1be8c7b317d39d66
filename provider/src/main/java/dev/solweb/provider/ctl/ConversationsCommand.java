package dev.solweb.provider.ctl;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    name = "conversations",
    mixinStandardHelpOptions = true,
    header = "List or delete the ChatGPT conversations solwebd created (never your own).",
    description = {
      "The managed conversations are those in the daemon's registry (<home>/registry.json):",
      "every conversation solwebd, ask-gpt's daemon path and factory-gpt opened. Your own",
      "chats are never listed, read or deleted; the sidebar is never enumerated.",
    },
    subcommands = {ListConversationsCommand.class, DeleteConversationsCommand.class})
final class ConversationsCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }
}
