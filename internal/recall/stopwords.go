package recall

// IsStopWord reports whether w (lower-case) is an English word too common
// to say what a text is about.
func IsStopWord(w string) bool { return isStopWord(w) }

func isStopWord(w string) bool {
	switch w {
	case "a", "about", "above", "after", "again", "against", "all", "am", "an", "and",
		"any", "are", "as", "at", "be", "because", "been", "before", "being", "below",
		"between", "both", "but", "by", "can", "could", "did", "do", "does", "doing",
		"down", "during", "each", "few", "for", "from", "further", "had", "has", "have",
		"having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
		"i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "might", "more",
		"most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once",
		"only", "or", "other", "ought", "our", "ours", "ourselves", "out", "over", "own",
		"s", "same", "shall", "she", "should", "so", "some", "such", "t", "than", "that",
		"the", "their", "theirs", "them", "themselves", "then", "there", "these", "they",
		"this", "those", "through", "to", "too", "under", "until", "up", "very", "was",
		"we", "were", "what", "when", "where", "which", "while", "who", "whom", "why",
		"will", "with", "would", "you", "your", "yours", "yourself", "yourselves",
		"d", "ll", "m", "re", "ve", "don", "doesn", "didn", "isn", "wasn", "aren", "weren",
		"won", "wouldn", "shouldn", "couldn", "hasn", "haven", "hadn", "also", "yes", "yet",
		"anything", "something", "ever", "much", "many", "please":
		return true
	}
	return false
}
