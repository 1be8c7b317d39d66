package dev.solweb.factory.pi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** One Pi compaction seen during a run ({@code compaction_start} .. {@code compaction_end}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Compaction(
    @JsonProperty("reason") String reason,
    @JsonProperty("aborted") boolean aborted,
    @JsonProperty("will_retry") boolean willRetry,
    @JsonProperty("error") String error) {}
